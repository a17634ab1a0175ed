import { z } from 'zod';
import {
  actionVariants,
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  countedPageEnvelope,
  named,
  okEnvelope,
  pageEnvelope,
  pagingParams,
  timestampSchema,
  uuidParam,
} from '../common/index.js';
import { customFieldValueSchema } from './contacts.js';
import { interactiveSchema, reactionSendSchema } from './interactive.js';

export const AUTOMATION_STATUSES = ['active', 'paused', 'draft'] as const;
/** What automations/manage may set; `draft` is only a state older rows may hold. */
export const AUTOMATION_WRITABLE_STATUSES = ['active', 'paused'] as const;
export const AUTOMATION_TRIGGER_EVENTS = ['message.received', 'contact.created', 'contact.labeled'] as const;
export type AutomationTriggerEvent = (typeof AUTOMATION_TRIGGER_EVENTS)[number];
export const AUTOMATION_RUN_OUTCOMES = ['succeeded', 'failed', 'skipped'] as const;
export const AUTOMATION_ACTION_TYPES = [
  'send_text',
  'send_template',
  'send_interactive',
  'send_reaction',
  'add_label',
  'remove_label',
  'set_custom_field',
] as const;
export const AUTOMATION_MAX_ACTIONS = 10;
export const AUTOMATION_MAX_CONDITIONS = 20;
/** The most automations one channel may have: each event of the channel runs every matching one. */
export const AUTOMATIONS_PER_CHANNEL = 100;
/** The largest definition (conditions and actions, as JSON) an automation may have, in bytes. */
export const AUTOMATION_MAX_DEFINITION_BYTES = 32 * 1024;

/**
 * `{{contact.name}}`, `{{contact.phone}}` and `{{customField.<name>}}` (also written
 * `{{contact.customFields.<name>}}`): what a text or template variable of an action or a broadcast may hold, filled
 * from the contact when the message is sent.
 */
export const AUTOMATION_PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const CUSTOM_FIELD_PLACEHOLDER_PREFIXES = ['customField.', 'contact.customFields.'] as const;
/** The field a placeholder's inner text names, or null when it names nothing an action can fill. */
export function placeholderField(inner: string): { kind: 'contact' | 'customField'; name: string } | null {
  if (inner === 'contact.name' || inner === 'contact.phone') return { kind: 'contact', name: inner.slice(8) };
  for (const prefix of CUSTOM_FIELD_PLACEHOLDER_PREFIXES)
    if (inner.startsWith(prefix) && inner.length > prefix.length)
      return { kind: 'customField', name: inner.slice(prefix.length) };
  return null;
}

/** Text that may hold placeholders, each naming a field (AUTOMATION_PLACEHOLDER); an unknown one is a 400. */
export const placeholderText = (max: number) =>
  z
    .string({ required_error: 'is required' })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .superRefine((text, ctx) => {
      for (const match of text.matchAll(AUTOMATION_PLACEHOLDER)) {
        if (!placeholderField(match[1]!))
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message:
              `unknown placeholder ${match[0]}: use {{contact.name}}, {{contact.phone}} or ` +
              '{{contact.customFields.<name>}}',
          });
      }
    });

const labelIdParam = uuidParam().describe('A label of this channel (labels/list)');
const customFieldName = z
  .string({ required_error: 'is required' })
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .describe('A custom field of this channel, by name (custom-fields/list)');

export const automationTriggerSchema = named(
  'AutomationTrigger',
  z
    .object({
      event: z
        .enum(AUTOMATION_TRIGGER_EVENTS)
        .describe(
          '`message.received`: a customer’s message on the channel; `contact.created`: a contact created by any ' +
            'path (API, inbound message, seed file); `contact.labeled`: a label added to a contact',
        ),
      labelId: labelIdParam
        .optional()
        .describe('`contact.labeled` only: run for this label alone (any label when left out)'),
    })
    .strict(),
);

export const automationConditionSchema = named(
  'AutomationCondition',
  z.discriminatedUnion('field', [
    named(
      'AutomationTextCondition',
      z
        .object({
          field: z.literal('text'),
          operator: z.enum(['contains', 'equals', 'startsWith']),
          value: z.string().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters'),
        })
        .strict()
        .describe('The message’s text, case-insensitively (`message.received` only)'),
    ),
    named(
      'AutomationReplyCondition',
      z
        .object({
          field: z.literal('reply'),
          operator: z.literal('equals'),
          value: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
        })
        .strict()
        .describe(
          'The id of the reply button or list row the customer tapped (`interactive.id` of `message.received`; ' +
            '`message.received` only)',
        ),
    ),
    named(
      'AutomationLabelCondition',
      z
        .object({ field: z.literal('label'), operator: z.enum(['has', 'hasNot']), value: labelIdParam })
        .strict()
        .describe('Whether the contact has the label'),
    ),
    named(
      'AutomationCustomFieldCondition',
      z
        .object({
          field: z.literal('customField'),
          name: customFieldName,
          operator: z.enum(['equals', 'isSet', 'isNotSet']),
          value: customFieldValueSchema.optional().describe('`equals` only: the value to compare with'),
        })
        .strict()
        .describe('A custom field value of the contact'),
    ),
    named(
      'AutomationFirstMessageCondition',
      z
        .object({ field: z.literal('firstMessage'), operator: z.literal('is'), value: z.boolean() })
        .strict()
        .describe('Whether the contact had sent no message on the channel before the triggering event'),
    ),
  ]),
);
export type AutomationCondition = z.infer<typeof automationConditionSchema>;

export const automationActionSchema = named(
  'AutomationAction',
  z.discriminatedUnion('type', [
    named(
      'AutomationSendTextAction',
      z
        .object({ type: z.literal('send_text'), text: placeholderText(4096) })
        .strict()
        .describe('A session message to the contact (needs an open customer-service window)'),
    ),
    named(
      'AutomationSendTemplateAction',
      z
        .object({
          type: z.literal('send_template'),
          templateName: z.string().min(1, 'must not be empty').max(512, 'must be at most 512 characters'),
          language: z.string().min(1, 'must not be empty').max(15, 'must be at most 15 characters').optional(),
          variables: z.array(placeholderText(1024)).max(100, 'must list at most 100 values').default([]),
        })
        .strict()
        .describe('An approved template of the channel (chat/templates/list)'),
    ),
    named(
      'AutomationSendInteractiveAction',
      z
        .object({ type: z.literal('send_interactive'), interactive: interactiveSchema })
        .strict()
        .describe(
          'Reply buttons, a list or a link button, as chat/message/send’s `interactive` (needs an open ' +
            'customer-service window); placeholders may fill the body, header text, footer and titles',
        ),
    ),
    named(
      'AutomationSendReactionAction',
      z
        .object({ type: z.literal('send_reaction'), emoji: reactionSendSchema.shape.emoji })
        .strict()
        .describe('A reaction to the triggering message (`message.received` only)'),
    ),
    named('AutomationAddLabelAction', z.object({ type: z.literal('add_label'), labelId: labelIdParam }).strict()),
    named('AutomationRemoveLabelAction', z.object({ type: z.literal('remove_label'), labelId: labelIdParam }).strict()),
    named(
      'AutomationSetCustomFieldAction',
      z
        .object({ type: z.literal('set_custom_field'), name: customFieldName, value: customFieldValueSchema })
        .strict()
        .describe('Typed like contacts/manage’s customFields; null clears the value'),
    ),
  ]),
);
export type AutomationAction = z.infer<typeof automationActionSchema>;

export const automationSchema = named(
  'Automation',
  z.object({
    id: idSchema,
    name: z.string(),
    status: z.enum(AUTOMATION_STATUSES),
    executionCount: z.number().int().describe('Runs whose conditions held (succeeded or failed)'),
    trigger: automationTriggerSchema.nullable().describe('null for an automation that was never given one'),
    conditions: z.array(automationConditionSchema),
    actions: z.array(automationActionSchema),
    lastRunAt: timestampSchema.nullable().describe('The latest run whose conditions held'),
    createdAt: timestampSchema,
  }),
);
export type Automation = z.infer<typeof automationSchema>;

export const automationRunStepSchema = named(
  'AutomationRunStep',
  z.object({
    type: z.enum(AUTOMATION_ACTION_TYPES),
    outcome: z.enum(['succeeded', 'failed']),
    error: z.string().optional().describe('Why the step failed'),
    msgid: z.string().optional().describe('The message a send action recorded'),
  }),
);

export const automationRunSchema = named(
  'AutomationRun',
  z.object({
    id: idSchema,
    automationId: idSchema,
    event: z.enum(AUTOMATION_TRIGGER_EVENTS),
    eventId: z.string().describe('The triggering event: the msgid for `message.received`'),
    contactId: idSchema,
    outcome: z
      .enum(AUTOMATION_RUN_OUTCOMES)
      .describe('`skipped`: the event matched the trigger but the conditions did not hold'),
    steps: z.array(automationRunStepSchema).describe('The actions that ran, in order; a failed one is the last'),
    createdAt: timestampSchema,
  }),
);
export type AutomationRun = z.infer<typeof automationRunSchema>;

/** The fields of an automation as automations/manage takes them (the seed file too). */
export const automationFields = {
  name: z
    .string({ required_error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .describe('Unique within the channel'),
  status: z.enum(AUTOMATION_WRITABLE_STATUSES).describe('`active` runs; `paused` does not'),
  trigger: automationTriggerSchema,
  conditions: z
    .array(automationConditionSchema)
    .max(AUTOMATION_MAX_CONDITIONS, `must list at most ${AUTOMATION_MAX_CONDITIONS} conditions`)
    .describe('All must hold; may be empty'),
  actions: z
    .array(automationActionSchema)
    .min(1, 'must list at least 1 action')
    .max(AUTOMATION_MAX_ACTIONS, `must list at most ${AUTOMATION_MAX_ACTIONS} actions`)
    .describe('Run in order; the first that fails stops the run'),
};

const automationIdParam = uuidParam().describe('The automation (automations/list)');

/** Each `action` of automations/manage with the fields it needs and takes. */
export const automationManageParams = actionVariants(
  {
    create: z.object({
      name: automationFields.name,
      status: automationFields.status.optional().describe('`active` (the default) runs; `paused` does not'),
      trigger: automationFields.trigger,
      conditions: automationFields.conditions.optional().describe('All must hold; empty (the default) always holds'),
      actions: automationFields.actions,
    }),
    update: z.object({
      automationId: automationIdParam,
      name: automationFields.name.optional(),
      status: automationFields.status.optional(),
      trigger: automationFields.trigger.optional(),
      conditions: automationFields.conditions.optional(),
      actions: automationFields.actions.optional(),
    }),
    delete: z.object({ automationId: automationIdParam }),
  },
  {
    shared: channelScoped,
    describe: 'What to do; each action takes its own fields',
    noun: 'an automation',
    fields: {
      name: automationFields.name.optional().describe('Required for create; unique within the channel'),
      status: automationFields.status.optional().describe('`active` (default on create) runs; `paused` does not'),
      trigger: automationFields.trigger.optional().describe('Required for create'),
      conditions: automationFields.conditions.optional().describe('All must hold; empty (the default) always holds'),
      actions: automationFields.actions.optional().describe('Required for create: 1–10, run in order'),
      automationId: automationIdParam.optional().describe('Required for update and delete'),
    },
  },
);
export type AutomationManageValues = z.output<typeof automationManageParams>;

export const automationRunsParams = z.object({
  ...channelScoped,
  ...pagingParams('runs'),
  automationId: uuidParam().optional().describe('Only this automation’s runs (a deleted one’s stay listed)'),
});

export const automationsContract = {
  list: endpoint({
    operation: 'workspace.automations.list',
    path: '/api/workspace/v1/automations/list',
    summary: 'List automations of a channel, paginated',
    description:
      'Newest first, with their trigger, conditions and actions; `total` (and `pagination.total`) counts all of the ' +
      'channel’s automations matching the filter.',
    params: z.object({
      ...channelScoped,
      ...pagingParams('automations'),
      status: z.enum(AUTOMATION_STATUSES).optional().describe('Only automations in this status'),
      automationId: uuidParam()
        .optional()
        .describe('Only this automation: a page of one (none when it is not in this channel)'),
    }),
    response: countedPageEnvelope(automationSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId },
  }),
  manage: endpoint({
    operation: 'workspace.automations.manage',
    path: '/api/workspace/v1/automations/manage',
    summary: 'Create, update or delete an automation',
    description: [
      '`create` needs `name`, `trigger` and `actions`; `update` changes the fields given; `delete` removes the ' +
        'automation (its runs stay in automations/runs until they age out, 30 days). The reply is the automation. ' +
        'Message: `Automation created|updated|deleted successfully`.',
      'Checked against the channel when written: labels, custom fields and approved templates the actions and ' +
        'conditions name must exist in the channel, placeholders must name a field (`contact.name`, ' +
        '`contact.phone` or `customField.<name>` in double braces), `text` and `reply` conditions and a ' +
        '`send_reaction` action need the `message.received` trigger, ' +
        'and names are unique in the channel: each a 400 naming the field (`actions.1.labelId: label not found in ' +
        'this channel`). An automationId of another channel the key may use is 404 `automation_not_found`; of a ' +
        'channel it may not use, 403.',
      'Automations run on events committed after they were created; what an automation does (messages, labels) ' +
        'never triggers automations.',
    ].join('\n\n'),
    params: automationManageParams,
    response: okEnvelope(automationSchema),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // `delete` removes an automation; `create` again makes another.
    effects: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
    errors: ['no_channel', 'automation_not_found'],
    // Scalars only (a GET's query string carries objects as JSON text, which examples do not show well). Pausing:
    // trying the example never starts an automation that sends messages.
    example: {
      channelId: EXAMPLE_IDS.channelId,
      action: 'update',
      automationId: EXAMPLE_IDS.automationId,
      status: 'paused',
    },
    failureExamples: {
      automationIdRequired: {
        summary: 'An update without the automation it changes',
        status: 400,
        error: 'invalid_request',
        message: 'automationId: is required to update an automation',
      },
    },
  }),
  runs: endpoint({
    operation: 'workspace.automations.runs',
    path: '/api/workspace/v1/automations/runs',
    summary: 'List automation runs, paginated',
    description:
      'Newest first (createdAt, then id, descending), kept 30 days. One run per automation and triggering event; ' +
      '`skipped` runs matched the trigger but not the conditions (not counted in executionCount). Events that do ' +
      'not match a trigger, paused automations and automations created after the event leave no run.',
    params: automationRunsParams,
    response: pageEnvelope(automationRunSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId, page: 1, limit: 50 },
  }),
};
