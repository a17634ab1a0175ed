import { z } from 'zod';
import {
  actionVariants,
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  isoTimeParam,
  named,
  okEnvelope,
  pageEnvelope,
  pagingParams,
  timestampSchema,
  uuidParam,
  type ActionVariantsOutput,
} from '../common/index.js';
import { placeholderText } from './automations.js';
import { templateSendButtonsParam, templateSendHeaderParam } from './template-parts.js';

export const BROADCAST_STATUSES = ['scheduled', 'preparing', 'sending', 'paused', 'completed', 'cancelled'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];
/** Why a broadcast is `paused`: its template was paused or disabled by Meta, or broadcasts/manage `pause`. */
export const BROADCAST_PAUSED_REASONS = ['template_paused', 'by_request'] as const;
export type BroadcastPausedReason = (typeof BROADCAST_PAUSED_REASONS)[number];
/** Where one recipient stands; exclusive: each recipient is counted in exactly one of them. */
export const BROADCAST_RECIPIENT_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'skipped'] as const;
export type BroadcastRecipientStatus = (typeof BROADCAST_RECIPIENT_STATUSES)[number];
/** The most contacts an audience may list by id (labels or `all` reach more). */
export const BROADCAST_MAX_CONTACT_IDS = 10_000;
/** How far ahead a broadcast may be scheduled. */
export const BROADCAST_MAX_SCHEDULE_DAYS = 30;
export const BROADCAST_NAME_MAX = 120;

const uuidList = (what: string, max: number) =>
  z
    .array(uuidParam())
    .min(1, 'must list at least 1 id')
    .max(max, `must list at most ${max.toLocaleString('en-US')} ids`)
    .describe(what);

const audienceFields = z
  .object({
    labelIds: uuidList('Contacts that have any of these labels of the channel (labels/list)', 100).optional(),
    contactIds: uuidList(
      `These contacts of the channel, at most ${BROADCAST_MAX_CONTACT_IDS.toLocaleString('en-US')}`,
      BROADCAST_MAX_CONTACT_IDS,
    ).optional(),
    all: z.literal(true).optional().describe('Every contact of the channel'),
  })
  .strict();

/** Exactly one of the three ways to name an audience. */
export const broadcastAudienceSchema = named(
  'BroadcastAudience',
  audienceFields
    .superRefine((audience, ctx) => {
      const given = (['labelIds', 'contactIds', 'all'] as const).filter((key) => audience[key] !== undefined);
      if (given.length === 1) return;
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: given.length ? [given[1]!] : [],
        message: given.length
          ? `cannot be combined with ${given[0]}: give exactly one of labelIds, contactIds, all`
          : 'must give exactly one of labelIds, contactIds, all',
      });
    })
    .describe(
      'Who receives it, exactly one of: `labelIds` (contacts with any of them), `contactIds` (at most ' +
        `${BROADCAST_MAX_CONTACT_IDS.toLocaleString('en-US')}), \`all: true\`. Resolved when sending starts.`,
    ),
);
export type BroadcastAudience = z.infer<typeof audienceFields>;
type AudienceKey = keyof BroadcastAudience;
/** One way, the others left out: what the SDK's type takes (the server refuses none or two). */
type OnlyAudience<K extends AudienceKey> = Required<Pick<BroadcastAudience, K>> & {
  [O in Exclude<AudienceKey, K>]?: undefined;
};
export type BroadcastAudienceInput = OnlyAudience<'labelIds'> | OnlyAudience<'contactIds'> | OnlyAudience<'all'>;
/** The same schema as a parameter: its input type is the one-of union. */
const broadcastAudienceParam = broadcastAudienceSchema as unknown as z.ZodEffects<
  typeof audienceFields,
  BroadcastAudience,
  BroadcastAudienceInput
>;

export const broadcastCountsSchema = named(
  'BroadcastCounts',
  z
    .object({
      recipients: z
        .number()
        .int()
        .describe(
          'Distinct phones the audience resolved to (0 while `scheduled` or `preparing`; growing, a chunk at a ' +
            'time, in the first seconds of `sending` for a large audience)',
        ),
      queued: z.number().int().describe('Waiting for their send'),
      sent: z.number().int().describe('Accepted by WhatsApp, not yet delivered'),
      delivered: z.number().int().describe('Delivered, not yet read'),
      read: z.number().int().describe('Read by the recipient'),
      failed: z.number().int().describe('Refused by WhatsApp, or whose send’s outcome is unknown'),
      skipped: z
        .number()
        .int()
        .describe('Never sent: unsubscribed or blocked (when sending started or at their turn), or cancelled'),
    })
    .describe('Exclusive: each recipient is in exactly one of the statuses; they add up to `recipients`'),
);
export type BroadcastCounts = z.infer<typeof broadcastCountsSchema>;

export const broadcastSchema = named(
  'Broadcast',
  z.object({
    id: idSchema,
    name: z.string(),
    status: z
      .enum(BROADCAST_STATUSES)
      .describe(
        '`scheduled` until its time; `preparing` until its audience starts to be resolved in the background (at ' +
          'most 2 broadcasts of a platform prepare at a time, the others wait their turn in order); `sending` once ' +
          'its first recipients are queued (the rest of its audience is resolved and queued behind them); ' +
          '`paused` (see `pausedReason`) until broadcasts/manage `resume`s it, its queued recipients staying ' +
          'queued; `completed` once its audience is resolved and every recipient is sent (or later), failed or ' +
          'skipped; `cancelled` by broadcasts/manage (an audience still being resolved is resolved no further)',
      ),
    pausedReason: z
      .enum(BROADCAST_PAUSED_REASONS)
      .nullable()
      .describe(
        'Why it is `paused` (null unless paused): `template_paused` when Meta paused or disabled its template ' +
          '(template.updated), `by_request` when broadcasts/manage `pause` paused it',
      ),
    templateName: z.string(),
    audience: broadcastAudienceSchema,
    scheduledAt: timestampSchema.nullable().describe('When it starts; null for one that started when created'),
    ratePerSecond: z.number().int().describe('Messages a second it sends at most'),
    counts: broadcastCountsSchema,
    createdAt: timestampSchema,
    startedAt: timestampSchema
      .nullable()
      .describe('When its audience was resolved and its sends queued (it became `sending`)'),
    completedAt: timestampSchema.nullable().describe('When it completed or was cancelled'),
  }),
);
export type Broadcast = z.infer<typeof broadcastSchema>;

export const broadcastRecipientSchema = named(
  'BroadcastRecipient',
  z.object({
    contactId: idSchema.nullable().describe('null once the contact was deleted'),
    phone: z.string().describe('Digits only, with country code'),
    status: z
      .enum(BROADCAST_RECIPIENT_STATUSES)
      .describe(
        '`queued` waits for its send; `sent`, `delivered`, `read` as WhatsApp reports; `failed` (see `reason`); ' +
          '`skipped`: never sent (see `reason`)',
      ),
    msgid: z.string().nullable().describe('The message (chat/message/status) once sent'),
    reason: z
      .string()
      .nullable()
      .describe(
        '`failed` and `skipped` only: Meta’s error code and text, `outcome_unknown`, `contact_unsubscribed` or ' +
          '`contact_blocked` (the contact’s status when sending started or when its turn came), or `cancelled`',
      ),
    updatedAt: timestampSchema,
  }),
);
export type BroadcastRecipient = z.infer<typeof broadcastRecipientSchema>;

const broadcastIdParam = uuidParam().describe('The broadcast’s id (broadcasts/list)');

/** `action: "create"`: what a new broadcast sends, to whom, when and how fast. */
export const broadcastCreateParams = z.object({
  name: z
    .string({ required_error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(BROADCAST_NAME_MAX, `must be at most ${BROADCAST_NAME_MAX} characters`)
    .describe('Unique within the channel'),
  templateName: z
    .string({ required_error: 'is required' })
    .min(1, 'must not be empty')
    .max(512, 'must be at most 512 characters')
    .describe('An approved template of the channel (chat/templates/list)'),
  language: z
    .string()
    .min(1, 'must not be empty')
    .max(15, 'must be at most 15 characters')
    .optional()
    .describe('The template’s language, needed only when its name exists in several'),
  variables: z
    .array(placeholderText(1024))
    .max(100, 'must list at most 100 values')
    .optional()
    .describe(
      'The template’s variables in order, as many as it has (none: leave out); each may hold the placeholders ' +
        '`contact.name`, `contact.phone` and `contact.customFields.<name>` in double braces, filled per recipient',
    ),
  header: templateSendHeaderParam
    .optional()
    .describe(
      'The template’s header value, as chat/templates/send takes it (`{mediaUrl}` or `{text}`); `text` may hold ' +
        'the same placeholders as `variables`',
    ),
  buttons: templateSendButtonsParam
    .optional()
    .describe('The template’s button values by `index`, as chat/templates/send takes them; placeholders work'),
  audience: broadcastAudienceParam,
  scheduledAt: isoTimeParam()
    .optional()
    .describe(
      `When to start: from now to ${BROADCAST_MAX_SCHEDULE_DAYS} days ahead (ISO 8601). Left out: it starts now`,
    ),
  ratePerSecond: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .optional()
    .describe('Messages a second at most, 1 up to the channel’s rate (the default)'),
});

/** `cancel`, `pause` and `resume` name the broadcast they act on. */
const broadcastActionParams = z.object({ broadcastId: broadcastIdParam });

const broadcastActions = {
  create: broadcastCreateParams,
  cancel: broadcastActionParams,
  pause: broadcastActionParams,
  resume: broadcastActionParams,
};
export type BroadcastManageValues = ActionVariantsOutput<typeof channelScoped, typeof broadcastActions>;
export type BroadcastCreateValues = Extract<BroadcastManageValues, { action: 'create' }>;

/** broadcasts/manage's parameters: one variant per action. */
export const broadcastManageParams = actionVariants(broadcastActions, {
  shared: channelScoped,
  describe: '`create` a broadcast, or `cancel`, `pause` or `resume` one',
  noun: 'a broadcast',
  fields: { broadcastId: broadcastIdParam.optional().describe('`cancel`, `pause`, `resume`: the broadcast') },
});
export type BroadcastManageParams = z.input<typeof broadcastManageParams>;

export const broadcastsListParams = z.object({
  ...channelScoped,
  ...pagingParams('broadcasts'),
  status: z.enum(BROADCAST_STATUSES).optional().describe('Only broadcasts in this status'),
  broadcastId: broadcastIdParam
    .optional()
    .describe('Only this broadcast: a page of one (none when it is not in this channel); poll one with it'),
});

export const broadcastRecipientsParams = z.object({
  ...channelScoped,
  ...pagingParams('recipients'),
  broadcastId: broadcastIdParam,
  status: z.enum(BROADCAST_RECIPIENT_STATUSES).optional().describe('Only recipients in this status'),
});

export const broadcastsContract = {
  manage: endpoint({
    operation: 'workspace.broadcasts.manage',
    path: '/api/workspace/v1/broadcasts/manage',
    summary: 'Create, cancel, pause or resume a broadcast',
    description: [
      '`create` sends an approved template to an audience of the channel’s contacts, now or at `scheduledAt`, at ' +
        'most `ratePerSecond` messages a second. It answers at once: `scheduled`, or `preparing` while the ' +
        'audience is resolved in the background into one recipient per distinct phone (counts filled when it ' +
        'becomes `sending`); contacts whose status is `unsubscribed` or `blocked` are recorded `skipped` and never ' +
        'sent, and a contact who opts out or is blocked before its turn is skipped then. Every wrong field is a 400 ' +
        'naming its path (`audience.labelIds.0: label not found in this channel`), and nothing is stored. Message: ' +
        '`Broadcast created successfully`.',
      '`cancel`: a scheduled, preparing or paused broadcast that never started never sends; a sending (or ' +
        'paused) one stops before the reply: no send is handed to the provider after it (one already handed over ' +
        'finishes), and its recipients not sent become `skipped` with reason `cancelled` (a background sweep, ' +
        'thousands a second). Cancelling a completed or cancelled broadcast is a 400. Message: `Broadcast ' +
        'cancelled successfully`.',
      '`pause`: a scheduled, preparing or sending broadcast becomes `paused` (`pausedReason: "by_request"`) before ' +
        'the reply: no send of it is handed to the provider after it (one already handed over finishes) and its ' +
        'queued recipients stay `queued`. A broadcast pauses itself the same way (`pausedReason: ' +
        '"template_paused"`) when Meta pauses or disables its template (template.updated). Pausing a broadcast in ' +
        'another status is a 400. Message: `Broadcast paused successfully`.',
      '`resume`: a paused broadcast goes on where it stopped, at its rate, its queued recipients sent once each ' +
        '(none sent before is sent again); one paused before it started becomes `scheduled` again (its time still ' +
        'ahead) or starts now. It resumes only when asked, and only while its template is approved: otherwise 400 ' +
        '`template_not_approved`. Resuming a broadcast that is not paused is a 400. Message: `Broadcast resumed ' +
        'successfully`.',
      'The reply is the broadcast. A broadcastId of another channel the key may use is 404 `broadcast_not_found`; ' +
        'of a channel it may not use, 403.',
    ].join('\n\n'),
    params: broadcastManageParams,
    response: okEnvelope(broadcastSchema),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // `create` and `resume` message every customer of the audience (no taking it back), `cancel` stops one.
    effects: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    errors: ['no_channel', 'broadcast_not_found', 'template_not_approved'],
    // Scalars only (a GET's query string carries objects as JSON text, which examples do not show well).
    example: { channelId: EXAMPLE_IDS.channelId, action: 'cancel', broadcastId: EXAMPLE_IDS.broadcastId },
    failureExamples: {
      alreadyCompleted: {
        summary: 'Cancelling a broadcast that completed',
        status: 400,
        error: 'invalid_request',
        message:
          'broadcastId: the broadcast is completed: only a scheduled, preparing, sending or paused one can be ' +
          'cancelled',
        request: { channelId: EXAMPLE_IDS.channelId, action: 'cancel', broadcastId: EXAMPLE_IDS.broadcastId },
      },
      pauseCompleted: {
        summary: 'Pausing a broadcast that completed',
        status: 400,
        error: 'invalid_request',
        message: 'broadcastId: the broadcast is completed: only a scheduled, preparing or sending one can be paused',
        request: { channelId: EXAMPLE_IDS.channelId, action: 'pause', broadcastId: EXAMPLE_IDS.broadcastId },
      },
      resumeNotPaused: {
        summary: 'Resuming a broadcast that is not paused',
        status: 400,
        error: 'invalid_request',
        message: 'broadcastId: the broadcast is completed: only a paused one can be resumed',
        request: { channelId: EXAMPLE_IDS.channelId, action: 'resume', broadcastId: EXAMPLE_IDS.broadcastId },
      },
    },
  }),
  list: endpoint({
    operation: 'workspace.broadcasts.list',
    path: '/api/workspace/v1/broadcasts/list',
    summary: 'List broadcasts of a channel, paginated',
    description:
      'Newest first (createdAt, then id, descending), each with its counts as they stand. `broadcastId` reads one ' +
      '(the SDK’s `broadcasts.get(id)`).',
    params: broadcastsListParams,
    response: pageEnvelope(broadcastSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId, page: 1, limit: 50 },
  }),
  recipients: endpoint({
    operation: 'workspace.broadcasts.recipients',
    path: '/api/workspace/v1/broadcasts/recipients',
    summary: 'List a broadcast’s recipients, paginated',
    description:
      'By phone. Empty until the broadcast is `sending`. Each moves on as WhatsApp reports its message (`sent`, ' +
      '`delivered`, `read`, `failed`); the message is in chat/messages/list with this `broadcastId`. Not in this ' +
      'channel: 404 `broadcast_not_found`; a broadcastId of a channel the key is not authorized for: 403.',
    params: broadcastRecipientsParams,
    response: pageEnvelope(broadcastRecipientSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel', 'broadcast_not_found'],
    example: { channelId: EXAMPLE_IDS.channelId, broadcastId: EXAMPLE_IDS.broadcastId, page: 1, limit: 50 },
  }),
};
