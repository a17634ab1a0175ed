import { z } from 'zod';
import {
  actionVariants,
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  listEnvelope,
  named,
  okEnvelope,
  phoneParam,
  timestampSchema,
  uuidParam,
  type ActionVariantsOutput,
  type FieldProblem,
} from '../common/index.js';
import { QUALITY_RATINGS } from './channels.js';
import { scheduledAtParam } from './messages.js';
import {
  templateBodyInput,
  templateButtonInput,
  templateButtonSchema,
  templateDraftProblems,
  templateHeaderInput,
  templateHeaderSchema,
  templateSendButtonsParam,
  templateSendHeaderParam,
  TEMPLATE_FOOTER_MAX,
} from './template-parts.js';

/** Meta's review states: only `approved` templates can be sent. */
export const TEMPLATE_STATUSES = [
  'approved',
  'pending',
  'rejected',
  'paused',
  'disabled',
  'in_appeal',
  'pending_deletion',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const templateSchema = named(
  'Template',
  z.object({
    id: idSchema,
    name: z.string(),
    category: z.enum(TEMPLATE_CATEGORIES),
    language: z.string().describe('Language code, e.g. en_US'),
    status: z.enum(TEMPLATE_STATUSES),
    body: z.string().describe('Text with {{1}}, {{2}}, … placeholders'),
    variableCount: z.number().int().describe('How many values `variables` must carry when sending'),
    header: templateHeaderSchema
      .nullable()
      .describe('A text header (with at most one variable) or a media/location header, filled per send; or none'),
    footer: z.string().nullable(),
    buttons: z
      .array(templateButtonSchema)
      .describe('In order: a send’s `buttons[].index` counts from 0 here (url and copy_code take a value)'),
    rejectedReason: z.string().nullable().describe('Meta’s reason, for a `rejected` template; else null'),
    quality: z.enum(QUALITY_RATINGS).describe('Meta’s quality rating: how recipients react to it'),
  }),
);
export type Template = z.infer<typeof templateSchema>;

/** `"Ada, A-1001"` → `["Ada", "A-1001"]`; an array is taken as is; nothing (or an empty string) is no values. */
export function splitVariables(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  return value.trim() === '' ? [] : value.split(',').map((v) => v.trim());
}

export const templateSendParams = z.object({
  ...channelScoped,
  to: phoneParam().describe('Recipient number, digits with country code (+, spaces and dashes are stripped)'),
  templateName: z
    .string({ required_error: 'is required' })
    .min(1, 'must not be empty')
    .describe('Name of an approved template'),
  variables: z
    .union([z.string(), z.array(z.string())], {
      errorMap: () => ({ message: 'must be a comma-separated string or an array of strings' }),
    })
    .optional()
    .transform(splitVariables)
    .refine((values) => values.every((v) => v.length > 0), 'must not contain empty values')
    .refine((values) => values.every((v) => v.length <= 1024), 'values must be at most 1024 characters each')
    .describe(
      'Placeholder values in order: "Ada,A-1001" or ["Ada", "A-1001"] (the array form allows commas in a value). ' +
        'Required when the ' +
        'template has placeholders: exactly its `variableCount` values (chat/templates/list), else 400 ' +
        '`invalid_request` ' +
        '(`variables: template "order_update" expects 2 values, got 0`); left out for a template without placeholders.',
    ),
  language: z
    .string()
    .min(2, 'must be a language code like en_US')
    .max(20, 'must be a language code like en_US')
    .optional()
    .describe('Template language; required only when the template exists in several languages'),
  header: templateSendHeaderParam
    .optional()
    .describe(
      'The template’s header value, when it needs one: `{mediaUrl}` for an image, video or document header (of ' +
        'that type), `{text}` for a text header with a variable',
    ),
  buttons: templateSendButtonsParam
    .optional()
    .describe(
      'Values of the template’s buttons by `index`: a URL button with a variable needs its value (the URL’s end), a ' +
        'copy-code button its code; a quick reply may carry a payload',
    ),
  scheduledAt: scheduledAtParam
    .optional()
    .describe(
      'Send later: an ISO 8601 time from now to 30 days ahead. The reply is then `{msgid, status: "scheduled", ' +
        'scheduledAt}`; the message is sent within seconds of that time (chat/message/cancel stops it before).',
    ),
});

/**
 * What templates/send answers: sent now, queued (the channel's budget is taken: a broadcast is sending), or
 * scheduled (the other message statuses come later, by events).
 */
export const TEMPLATE_SEND_STATUSES = ['accepted', 'queued', 'scheduled'] as const;

export const templateSendResult = named(
  'TemplateSendResult',
  z.object({
    msgid: z.string().describe('Message identifier; use it with chat/message/status'),
    status: z
      .enum(TEMPLATE_SEND_STATUSES)
      .describe(
        '`accepted` (sent now), `queued` (the channel’s sending budget is in use, e.g. by a broadcast: sent in its ' +
          'turn, within seconds) or `scheduled`',
      ),
    to: z.string(),
    templateName: z.string(),
    scheduledAt: timestampSchema.optional().describe('When a scheduled message will be sent'),
  }),
);
export type TemplateSendResult = z.infer<typeof templateSendResult>;

export const templateSyncResult = named(
  'TemplateSyncResult',
  z.object({
    synced: z
      .number()
      .int()
      .describe('Templates pulled from the provider and stored, in every review state (0 for a sandbox channel)'),
    approved: z.number().int().describe('Approved templates of the channel now: what chat/templates/list lists'),
  }),
);

/** A messaging provider's refusals (WhatsApp Cloud API): any endpoint that calls the provider can answer them. */
const PROVIDER_ERRORS = ['provider_rejected', 'provider_unauthorized', 'provider_unavailable'] as const;

export const templatesListParams = z.object({
  ...channelScoped,
  status: z
    .enum([...TEMPLATE_STATUSES, 'all'])
    .default('approved')
    .describe('Only templates in this status (`approved` when left out), or `all`'),
});

const templateName = z
  .string({ required_error: 'is required' })
  .regex(/^[a-z0-9_]{1,512}$/, 'must be 1 to 512 lowercase letters, digits or underscores')
  .describe('Lowercase letters, digits and `_`; unique per language in the channel');
const templateIdParam = uuidParam().describe('The template (chat/templates/list with `status: "all"`)');
const footerParam = z
  .string()
  .min(1, 'must not be empty')
  .max(TEMPLATE_FOOTER_MAX, `must be at most ${TEMPLATE_FOOTER_MAX} characters`)
  .describe('Plain text, no variables');
const buttonsParam = z.array(templateButtonInput).describe('Up to 10: ≤ 2 url, ≤ 1 phone_number, ≤ 1 copy_code');

const templateCreateFields = z.object({
  name: templateName,
  language: z
    .string({ required_error: 'is required' })
    .regex(/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/, 'must be a language code like en_US'),
  category: z.enum(TEMPLATE_CATEGORIES),
  body: templateBodyInput,
  header: templateHeaderInput.optional(),
  footer: footerParam.optional(),
  buttons: buttonsParam.optional(),
});
const templateUpdateFields = z.object({
  templateId: templateIdParam,
  category: z.enum(TEMPLATE_CATEGORIES).optional(),
  body: templateBodyInput.optional(),
  // A plain union with null (not `.nullable()` on the discriminated union), which OpenAPI 3.1 can write as types.
  header: z
    .union([...templateHeaderInput.options, z.null()])
    .optional()
    .describe('The new header; null removes it'),
  footer: footerParam.nullable().optional().describe('null removes the footer'),
  buttons: buttonsParam.optional().describe('Replaces every button; [] removes them'),
});
const templateDeleteFields = z.object({
  templateId: templateIdParam.optional().describe('This language of a template'),
  name: templateName.optional().describe('Every language of the template'),
});

const templateActions = { create: templateCreateFields, update: templateUpdateFields, delete: templateDeleteFields };
export type TemplateManageValues = ActionVariantsOutput<typeof channelScoped, typeof templateActions>;

function templateManageProblems(manage: TemplateManageValues): FieldProblem[] {
  if (manage.action !== 'delete') return templateDraftProblems(manage);
  if ((manage.templateId === undefined) === (manage.name === undefined))
    return [{ field: 'templateId', problem: 'give exactly one of templateId (one language) or name (every language)' }];
  return [];
}

export const templateManageParams = actionVariants(templateActions, {
  shared: channelScoped,
  describe: '`create`, `update` or `delete` a template at Meta',
  noun: 'a template',
  fields: {
    templateId: templateIdParam.optional(),
    name: templateName.optional().describe('`create`: the new name; `delete`: remove every language of it'),
  },
  check: templateManageProblems,
});
export type TemplateManageParams = z.input<typeof templateManageParams>;

export const templateDeletionSchema = named(
  'TemplateDeletion',
  z.object({
    name: z.string(),
    deleted: z.array(z.object({ id: idSchema, language: z.string() })).describe('The languages removed'),
    reusableAfter: timestampSchema.describe('Meta refuses the name for a new template until then (30 days)'),
  }),
);
export type TemplateDeletion = z.infer<typeof templateDeletionSchema>;

export const templatesContract = {
  list: endpoint({
    operation: 'workspace.chat.templates.list',
    path: '/api/workspace/v1/chat/templates/list',
    summary: 'List templates of a channel',
    description:
      'The channel’s `approved` templates (what can be sent), ordered by name then language; `status` lists those ' +
      'in another review state (`pending`, `rejected`, `paused`, …) or `all`. Each carries its header, footer and ' +
      'buttons, Meta’s quality rating and, when rejected, Meta’s reason.',
    params: templatesListParams,
    response: listEnvelope(templateSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId },
  }),
  manage: endpoint({
    operation: 'workspace.chat.templates.manage',
    path: '/api/workspace/v1/chat/templates/manage',
    summary: 'Create, edit or delete a template at Meta',
    description: [
      '`create` submits a template for Meta’s review (`POST /{WABA_ID}/message_templates`) and replies it, usually ' +
        '`pending` (Meta may approve a UTILITY template at once; `template.updated` reports the review). Every ' +
        'local rule is a 400 naming its path before Meta is asked: name, body ≤ 1024 with variables {{1}}, {{2}}, … ' +
        'in order (none at the very start or end) and one `body.examples` value each, header text ≤ 60 with at most ' +
        'one variable, footer ≤ 60 without, ≤ 10 buttons (≤ 2 url, ≤ 1 phone_number, ≤ 1 copy_code, text ≤ 25, ' +
        'quick replies grouped), a URL’s one variable only at its end with an example. A media header’s ' +
        '`mediaUrl` is fetched by the server and uploaded with Meta’s resumable upload API on the channel’s Meta ' +
        'app: a channel connected without its app ID (`channel connect --app-id`, or the portal) is a 400 naming ' +
        '`header`; a sample that cannot be fetched, is not JPEG or PNG (image), MP4 (video) or PDF (document), or ' +
        'is over Meta’s limit (5 MB, 16 MB, 100 MB) is a 400 naming `header.mediaUrl`. The same name and language ' +
        'existing: 400 `template_exists`; Meta’s own refusal: 400 `provider_rejected` with Meta’s message. ' +
        'Message: `Template submitted for review` (`Template approved` when approved at once).',
      '`update` changes the parts given (name and language never change), only while `approved`, `rejected` or ' +
        '`paused` (else 400 `template_not_editable`); an approved template at most once a day and 10 times in 30 ' +
        'days (400 `template_edit_limit` says when the next edit is allowed). Message: `Template submitted for ' +
        'review`.',
      '`delete` removes one language (`templateId`) or every language (`name`) at Meta and here; 400 ' +
        '`template_in_use` while a scheduled, sending or paused broadcast or a scheduled message uses it. Meta ' +
        'refuses the name for 30 days after (`reusableAfter`). Message: `Template deleted`.',
      'Sandbox channels review locally: a created or edited template becomes `approved` after ' +
        'SANDBOX_TEMPLATE_REVIEW_MS, or `rejected` when its name starts with `reject_`; a media header’s sample is ' +
        'not fetched.',
    ].join('\n\n'),
    params: templateManageParams,
    response: okEnvelope(
      named(
        'TemplateManageResult',
        z.union([templateSchema, templateDeletionSchema]).describe('The template (create, update) or the deletion'),
      ),
    ),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // Submits to Meta (outside) and may delete a template no one can recreate under that name for 30 days.
    effects: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    errors: [
      'no_channel',
      'template_not_found',
      'template_exists',
      'template_not_editable',
      'template_edit_limit',
      'template_in_use',
      ...PROVIDER_ERRORS,
    ],
    example: {
      channelId: EXAMPLE_IDS.channelId,
      action: 'create',
      name: 'order_shipped',
      language: 'en_US',
      category: 'UTILITY',
      body: { text: 'Hi {{1}}, order {{2}} has shipped with {{3}}.', examples: ['Ada', 'A-1001', 'DHL'] },
      footer: 'Reply STOP to opt out',
      buttons: [{ type: 'quick_reply', text: 'Track order' }],
    },
    failureExamples: {
      bodyExamples: {
        summary: 'A variable without its sample value',
        status: 400,
        error: 'invalid_request',
        message: 'body.examples: must list 2 sample values, one per variable',
        request: {
          channelId: EXAMPLE_IDS.channelId,
          action: 'create',
          name: 'order_shipped',
          language: 'en_US',
          category: 'UTILITY',
          body: { text: 'Hi {{1}}, order {{2}} has shipped.', examples: ['Ada'] },
        },
      },
      templateExists: {
        summary: 'The name exists in that language',
        status: 400,
        error: 'template_exists',
        message: 'Template "order_update" exists in en_US already: update it, or choose another name.',
        request: {
          channelId: EXAMPLE_IDS.channelId,
          action: 'create',
          name: 'order_update',
          language: 'en_US',
          category: 'UTILITY',
          body: { text: 'Hi {{1}}, order {{2}} has shipped.', examples: ['Ada', 'A-1001'] },
        },
      },
    },
  }),
  send: endpoint({
    operation: 'workspace.chat.templates.send',
    path: '/api/workspace/v1/chat/templates/send',
    summary: 'Send a template message',
    description:
      'Queues an outbound template message through the channel’s messaging provider and returns its `msgid` with ' +
      'status `accepted`; follow its progress (`sent`, `delivered`, …) with chat/message/status. Message: `Template ' +
      'message queued`. Unknown or not yet approved template: 404 `template_not_found`. `variables` must carry ' +
      'exactly the template’s `variableCount` values, else 400. On a WhatsApp Cloud API channel Meta’s refusals map ' +
      'to 400 `provider_rejected` (recipient, template, parameters; Meta’s code and text in the message), 502 ' +
      '`provider_unauthorized` (the channel’s token was refused) and 503 `provider_unavailable` (Meta unreachable, ' +
      'failing or rate limiting; `Retry-After`); none of them records a message. A MARKETING template to a contact ' +
      'whose status is `unsubscribed` (they sent a stop word) or `blocked`: 400 `contact_unsubscribed` / ' +
      '`contact_blocked`, nothing sent (UTILITY and AUTHENTICATION templates still go). With `scheduledAt` the ' +
      'message is recorded `scheduled` (message `Template message scheduled`) and sent at that time through the ' +
      'send pipeline (Meta’s refusals then show as status `failed`).',
    params: templateSendParams,
    response: okEnvelope(templateSendResult),
    rateClass: 'api_message',
    access: { scope: 'workspace' },
    errors: [
      'no_channel',
      'template_not_found',
      'template_not_approved',
      'contact_unsubscribed',
      'contact_blocked',
      'service_unavailable',
      ...PROVIDER_ERRORS,
    ],
    example: {
      channelId: EXAMPLE_IDS.channelId,
      to: '15550000001',
      templateName: EXAMPLE_IDS.templateName,
      variables: 'Ada,A-1001',
    },
    failureExamples: {
      variablesRequired: {
        summary: 'variables left out for a template with placeholders',
        status: 400,
        error: 'invalid_request',
        message: 'variables: template "order_update" expects 2 values, got 0',
      },
    },
  }),
  sync: endpoint({
    operation: 'workspace.chat.templates.sync',
    path: '/api/workspace/v1/chat/templates/sync',
    summary: 'Sync templates from the provider',
    description:
      'Pulls the channel’s templates from its messaging provider now and replaces the channel’s templates with them ' +
      '(they are also pulled when the channel is connected, on a schedule, and when Meta reports a review result). ' +
      'WhatsApp Cloud API: every template of the business account with its header, footer, buttons, quality and ' +
      'rejection reason; Meta’s statuses map to ours (`APPROVED` → `approved`, `PAUSED` → `paused`, `IN_APPEAL` → ' +
      '`in_appeal`, …); templates removed at Meta are removed here. Message: ' +
      '`Templates synced from WhatsApp`. A sandbox channel has nothing to pull (its templates come from the seed ' +
      'file): `synced` is 0, `approved` counts its approved templates, message `Sandbox channel: templates come from ' +
      'the seed file; nothing to sync`. Meta’s refusals map as in chat/templates/send.',
    params: z.object({ ...channelScoped }),
    response: okEnvelope(templateSyncResult),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // Asks the provider (Meta) and mirrors its answer: a repeat changes nothing more.
    effects: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
    errors: ['no_channel', ...PROVIDER_ERRORS],
    example: { channelId: EXAMPLE_IDS.channelId },
  }),
};
