import { z } from 'zod';
import {
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  listEnvelope,
  named,
  okEnvelope,
  phoneParam,
  timestampSchema,
} from '../common/index.js';
import { scheduledAtParam } from './messages.js';

export const TEMPLATE_STATUSES = ['approved', 'pending', 'rejected'] as const;
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
  scheduledAt: scheduledAtParam
    .optional()
    .describe(
      'Send later: an ISO 8601 time from now to 30 days ahead. The reply is then `{msgid, status: "scheduled", ' +
        'scheduledAt}`; the message is sent within seconds of that time (chat/message/cancel stops it before).',
    ),
});

/** What templates/send answers: sent now, or scheduled (the other message statuses come later, by events). */
export const TEMPLATE_SEND_STATUSES = ['accepted', 'scheduled'] as const;

export const templateSendResult = named(
  'TemplateSendResult',
  z.object({
    msgid: z.string().describe('Message identifier; use it with chat/message/status'),
    status: z.enum(TEMPLATE_SEND_STATUSES).describe('`accepted` (sent now) or `scheduled`'),
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
      .describe(
        'Templates pulled from the provider and stored: approved, pending and rejected (0 for a sandbox channel)',
      ),
    approved: z.number().int().describe('Approved templates of the channel now: what chat/templates/list lists'),
  }),
);

/** A messaging provider's refusals (WhatsApp Cloud API): any endpoint that calls the provider can answer them. */
const PROVIDER_ERRORS = ['provider_rejected', 'provider_unauthorized', 'provider_unavailable'] as const;

export const templatesContract = {
  list: endpoint({
    operation: 'workspace.chat.templates.list',
    path: '/api/workspace/v1/chat/templates/list',
    summary: 'List approved templates of a channel',
    description: 'Only `approved` templates, ordered by name then language.',
    params: z.object({ ...channelScoped }),
    response: listEnvelope(templateSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId },
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
      'WhatsApp Cloud API: every template of the business account; `APPROVED` → `approved`, `PENDING`/`IN_APPEAL` → ' +
      '`pending`, `REJECTED` → `rejected`; paused, disabled and removed templates stop being listed. Message: ' +
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
