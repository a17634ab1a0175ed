/**
 * chat/message/*: one message, by its msgid (status, read) or to send (send); and the message schemas the other
 * chat endpoints and the webhook events share.
 */
import { z } from 'zod';
import {
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  named,
  okEnvelope,
  phoneParam,
  timestampSchema,
  uuidParam,
  withFieldRules,
  withVariants,
  type FieldProblem,
  type ParamsForm,
  type TimeParam,
} from '../common/index.js';
import {
  httpsUrlParam,
  interactiveReplySchema,
  interactiveSchema,
  locationSchema,
  reactionSchema,
  reactionSendSchema,
} from './interactive.js';

/**
 * A message's status. `scheduled` (waiting for its time), `queued` (waiting for the channel's send budget) and
 * `sending` (its provider call under way) come before the provider's answer; `cancelled` ends a scheduled or queued
 * message that was never sent. The rest are the provider's: accepted < sent < delivered < read, or failed.
 */
export const MESSAGE_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'accepted',
  'sent',
  'delivered',
  'read',
  'failed',
  'cancelled',
] as const;

/** A message's `status` field, documented where it is read (Message, MessageStatus). */
const messageStatusField = () =>
  z
    .enum(MESSAGE_STATUSES)
    .describe(
      '`scheduled`, `queued`, `sending` before the provider answers; then accepted < sent < delivered < read, or ' +
        '`failed` (see `error`); `cancelled`: never sent (see `reason`)',
    );

/** The statuses a provider reports (its answer to the send, then its status webhooks). */
export const PROVIDER_STATUSES = ['accepted', 'sent', 'delivered', 'read', 'failed'] as const;
/** What `message.status.updated` reports a message moved to: the provider's statuses, or `cancelled`. */
export const MESSAGE_OUTCOMES = [...PROVIDER_STATUSES, 'cancelled'] as const;
/**
 * Why a message was `cancelled` or `failed` without the provider's answer: `cancelled` (chat/message/cancel, or its
 * broadcast was cancelled), `contact_unsubscribed` / `contact_blocked` (a MARKETING template or a broadcast's send
 * whose contact was no longer `active` when its turn came), `outcome_unknown` (the send's outcome was lost).
 */
export const MESSAGE_REASONS = ['cancelled', 'contact_unsubscribed', 'contact_blocked', 'outcome_unknown'] as const;
export type MessageReason = (typeof MESSAGE_REASONS)[number];
export const MESSAGE_DIRECTIONS = ['outbound', 'inbound'] as const;
/** WhatsApp's message types; an inbound type outside this list is recorded as `unsupported`. */
export const MESSAGE_TYPES = [
  'text',
  'template',
  'image',
  'document',
  'audio',
  'video',
  'location',
  'interactive',
  'sticker',
  'contacts',
  'button',
  'reaction',
  'order',
  'system',
  'unsupported',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Why the provider reports a message failed (WhatsApp: Meta's error code and title, e.g. 131026). */
export const messageErrorSchema = named(
  'MessageError',
  z.object({
    code: z.number().int(),
    title: z.string(),
    retryable: z
      .boolean()
      .describe(
        'Whether sending the same message again later may succeed: true for Meta’s throughput and pair rate limits ' +
          '(130429, 131056) and its transient service errors; false for the recipient, the window, the template ' +
          'and its parameters (131026, 131047, 132000, 132001, 132012, 132015, …)',
      ),
  }),
);
export type MessageError = z.infer<typeof messageErrorSchema>;

/**
 * Meta's error codes a later send of the same message may get past: rate limits (130429 throughput, 131056 pair
 * rate) and transient service errors (1, 2, 131000, 131016, 133004). Everything else is about the message itself.
 */
const RETRYABLE_ERROR_CODES: ReadonlySet<number> = new Set([1, 2, 130429, 131000, 131016, 131056, 133004]);

/** A provider's failure as the API shows it: code, title and whether retrying may help. */
export const messageError = (code: number, title: string): MessageError => ({
  code,
  title,
  retryable: RETRYABLE_ERROR_CODES.has(code),
});
/** A message's `error`, wherever it appears (status lookups, status events). */
export const messageErrorField = messageErrorSchema.optional().describe('Present only when `status` is `failed`.');
/** A message's `reason`, wherever it appears (status lookups, the history, status events). */
export const messageReasonField = z
  .enum(MESSAGE_REASONS)
  .optional()
  .describe(
    'Present only when `status` is `cancelled` (`cancelled`, `contact_unsubscribed`, `contact_blocked`) or ' +
      '`failed` without the provider’s answer (`outcome_unknown`).',
  );

/** A message's file: Meta's media id for a customer's media, the link Meta fetched for an outbound one. */
export const messageMediaSchema = named(
  'MessageMedia',
  z.object({
    mediaId: z.string().optional().describe('The provider’s media id (inbound): fetch the file with chat/media/get'),
    url: z.string().optional().describe('The `https://` link the file was sent from (outbound)'),
    mimeType: z.string().optional(),
    sha256: z.string().optional(),
    filename: z.string().optional().describe('Documents only'),
    caption: z.string().optional(),
  }),
);
export type MessageMedia = z.infer<typeof messageMediaSchema>;

/** What a message of type `interactive` carries: the message as sent, or a customer's tap on one. */
export const messageInteractiveSchema = named(
  'MessageInteractive',
  z
    .union([interactiveSchema, interactiveReplySchema])
    .describe(
      'An outbound interactive message as it was sent (`kind` buttons, list or cta_url), or a customer’s tap ' +
        '(`kind` button_reply or list_reply, with the id of the button or row)',
    ),
);
export type MessageInteractive = z.infer<typeof messageInteractiveSchema>;

/** One message of a conversation, as chat/messages/list shows it. */
export const messageSchema = named(
  'Message',
  z.object({
    msgid: z.string(),
    direction: z.enum(MESSAGE_DIRECTIONS),
    type: z.enum(MESSAGE_TYPES),
    status: messageStatusField(),
    contactId: idSchema.nullable().describe('The contact the conversation is with'),
    from: z.string().nullable().describe('The customer’s phone digits (inbound); null for outbound'),
    to: z.string().nullable().describe('The recipient’s phone digits (outbound); null for inbound'),
    text: z
      .string()
      .nullable()
      .describe(
        'A text’s body or a media caption, or a readable form of the other types (an interactive message’s body, ' +
          'a tapped button’s title, a reaction’s emoji, a location’s name); null otherwise',
      ),
    templateName: z.string().nullable(),
    media: messageMediaSchema.nullable(),
    replyTo: z
      .string()
      .nullable()
      .describe('The msgid this message quotes; for a tap on a button or a list row, the message tapped'),
    interactive: messageInteractiveSchema.nullable(),
    reaction: reactionSchema.nullable(),
    location: locationSchema.nullable(),
    error: messageErrorField,
    reason: messageReasonField,
    automationId: idSchema.nullable().describe('The automation that sent it; null otherwise'),
    broadcastId: idSchema.nullable().describe('The broadcast that sent it (broadcasts/list); null otherwise'),
    createdAt: timestampSchema.describe('Sent (outbound) or, inbound, when the customer sent it'),
    updatedAt: timestampSchema,
  }),
);
export type Message = z.infer<typeof messageSchema>;

export const messageStatusSchema = named(
  'MessageStatus',
  z.object({
    msgid: z.string(),
    status: messageStatusField(),
    direction: z.enum(MESSAGE_DIRECTIONS),
    type: z.enum(MESSAGE_TYPES),
    error: messageErrorField,
    reason: messageReasonField,
  }),
);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

/** A message's id as chat/templates/send returned it or message.received carried it. */
export const msgidParam = z
  .string({ required_error: 'is required' })
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');

const SCHEDULE_DAYS = 30;
/** When a scheduled send goes: ISO 8601, from now to 30 days ahead (checked when the request arrives). */
export const scheduledAtParam = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time, like 2026-12-01T09:00:00Z' })
  .refine((value) => Date.parse(value) >= Date.now() - 60_000, 'must not be in the past')
  .refine(
    (value) => Date.parse(value) <= Date.now() + SCHEDULE_DAYS * 86_400_000,
    `must be at most ${SCHEDULE_DAYS} days ahead`,
  ) as unknown as TimeParam;

export const messageCancelResult = named(
  'MessageCancelResult',
  z.object({ msgid: z.string(), status: z.enum(MESSAGE_STATUSES).describe('`cancelled`') }),
);
export type MessageCancelResult = z.infer<typeof messageCancelResult>;
/** How long after a customer's newest message a session (free-form) message may be sent: Meta's rule. */
export const SESSION_WINDOW_HOURS = 24;
export const SESSION_MESSAGE_TYPES = [
  'text',
  'image',
  'document',
  'audio',
  'video',
  'interactive',
  'reaction',
  'location',
] as const;
export type SessionMessageType = (typeof SESSION_MESSAGE_TYPES)[number];
const MEDIA_TYPES: readonly SessionMessageType[] = ['image', 'document', 'audio', 'video'];
const CAPTIONED: readonly SessionMessageType[] = ['image', 'document', 'video'];
/** The types carried by a field of their own name (`interactive`, `reaction`, `location`). */
const OWN_FIELD_TYPES = ['interactive', 'reaction', 'location'] as const;
/** How old a message may be to be reacted to: Meta's rule. */
export const REACTION_MAX_AGE_DAYS = 30;

/** A provider's refusals (WhatsApp Cloud API), as chat/templates/send answers them. */
const PROVIDER_ERRORS = ['provider_rejected', 'provider_unauthorized', 'provider_unavailable'] as const;

const sessionSendFields = z.object({
  ...channelScoped,
  to: phoneParam().optional().describe('Recipient number, digits with country code (or `contactId`)'),
  contactId: uuidParam().optional().describe('Or the recipient as a contact of the channel'),
  type: z.enum(SESSION_MESSAGE_TYPES).default('text').describe('What is sent; `text` unless given'),
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(4096, 'must be at most 4096 characters')
    .optional()
    .describe('The message (type `text` only; required there)'),
  mediaUrl: httpsUrlParam
    .optional()
    .describe('Public `https://` link of the file, which the provider fetches (required for the media types)'),
  caption: z
    .string()
    .min(1, 'must not be empty')
    .max(1024, 'must be at most 1024 characters')
    .optional()
    .describe('image, document and video only'),
  filename: z
    .string()
    .min(1, 'must not be empty')
    .max(240, 'must be at most 240 characters')
    .optional()
    .describe('document only: the name the recipient sees'),
  replyTo: z
    .string()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('msgid of a message of the same conversation, quoted in the reply'),
  previewUrl: z.boolean().optional().describe('text only: let WhatsApp show a preview of the first link'),
  interactive: interactiveSchema
    .optional()
    .describe('type interactive only (required there): reply buttons, a list or a link button'),
  reaction: reactionSendSchema
    .optional()
    .describe(
      `type reaction only (required there): the message reacted to (at most ${REACTION_MAX_AGE_DAYS} days old) and ` +
        'the emoji; WhatsApp reports a reaction `sent`, never delivered or read',
    ),
  location: locationSchema.optional().describe('type location only (required there)'),
});
type SessionSendInput = z.input<typeof sessionSendFields>;
export type SessionSendParams =
  | (SessionSendInput & { to: string; contactId?: undefined })
  | (SessionSendInput & { contactId: string; to?: undefined });
export type SessionSendValues = z.output<typeof sessionSendFields>;

/** Which fields go with which `type`: a field that does not belong is named in the 400, like one that is missing. */
export function sessionSendProblems(values: SessionSendValues): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const given = (['to', 'contactId'] as const).filter((name) => values[name] !== undefined);
  if (given.length === 0) problems.push({ field: 'to', problem: 'is required (or contactId)' });
  if (given.length === 2)
    problems.push({ field: 'contactId', problem: 'cannot be combined with to: give one of them' });
  const { type } = values;
  const isText = type === 'text';
  const isMedia = MEDIA_TYPES.includes(type);
  if (isText && values.text === undefined) problems.push({ field: 'text', problem: 'is required for type text' });
  if (!isText && values.text !== undefined)
    problems.push({ field: 'text', problem: `is for type text${isMedia ? `; use caption with type ${type}` : ''}` });
  if (isMedia && values.mediaUrl === undefined)
    problems.push({ field: 'mediaUrl', problem: `is required for type ${type}` });
  if (!isMedia && values.mediaUrl !== undefined)
    problems.push({ field: 'mediaUrl', problem: 'is for the media types (image, document, audio, video)' });
  if (values.caption !== undefined && !CAPTIONED.includes(type))
    problems.push({ field: 'caption', problem: 'is for types image, document and video' });
  if (values.filename !== undefined && type !== 'document')
    problems.push({ field: 'filename', problem: 'is for type document' });
  if (values.previewUrl !== undefined && !isText) problems.push({ field: 'previewUrl', problem: 'is for type text' });
  for (const field of OWN_FIELD_TYPES) {
    if (type === field && values[field] === undefined)
      problems.push({ field, problem: `is required for type ${field}` });
    if (type !== field && values[field] !== undefined) problems.push({ field, problem: `is for type ${field}` });
  }
  if (type === 'reaction' && values.replyTo !== undefined)
    problems.push({ field: 'replyTo', problem: 'is not for a reaction: reaction.msgid names the message' });
  return problems;
}

/**
 * The fields each message `type` needs and takes, as sessionSendProblems checks them: the SDK's input is one form per
 * type (the OpenAPI a `oneOf` with a discriminator), so `{ type: 'image' }` without `mediaUrl` does not compile.
 */
export const SESSION_SEND_FORMS = {
  text: { required: ['text'], optional: ['previewUrl'] },
  image: { required: ['mediaUrl'], optional: ['caption'] },
  document: { required: ['mediaUrl'], optional: ['caption', 'filename'] },
  audio: { required: ['mediaUrl'], optional: [] },
  video: { required: ['mediaUrl'], optional: ['caption'] },
  interactive: { required: ['interactive'], optional: [] },
  reaction: { required: ['reaction'], optional: [] },
  location: { required: ['location'], optional: [] },
} as const satisfies Record<SessionMessageType, ParamsForm<keyof SessionSendInput & string>>;

const sessionSendForms = withVariants(sessionSendFields, 'type', SESSION_SEND_FORMS, 'text');
/** What the SDK accepts: one form per type, and the recipient by `to` or by `contactId`. */
export type SessionSendForms = z.input<typeof sessionSendForms> &
  ({ to: string; contactId?: undefined } | { contactId: string; to?: undefined });

export const sessionSendParams = withFieldRules<SessionSendForms>()(sessionSendForms, {
  sets: [['to'], ['contactId']],
  check: sessionSendProblems,
});

export const sessionSendResult = named(
  'SessionMessageSendResult',
  z.object({
    msgid: z.string().describe('Message identifier; use it with chat/message/status'),
    status: z.enum(MESSAGE_STATUSES),
    to: z.string(),
    type: z.enum(SESSION_MESSAGE_TYPES),
  }),
);
export type SessionSendResult = z.infer<typeof sessionSendResult>;

export const messageReadResult = named(
  'MessageReadResult',
  z.object({
    msgid: z.string(),
    status: z.literal('read'),
    markedRead: z.number().int().describe('How many of the conversation’s messages this call marked read'),
  }),
);

const WINDOW_RULE =
  'The 24-hour customer-service window (Meta’s rule, enforced on every channel, the sandbox too): a session ' +
  'message may be sent only while the recipient’s newest inbound message on this channel is under 24 hours old ' +
  '(its `createdAt`, when the customer sent it). Otherwise 400 `session_window_closed` with the time the window ' +
  'closed (or that the contact never wrote); send a template (chat/templates/send) instead.';

export const messagesContract = {
  status: endpoint({
    operation: 'workspace.chat.message.status',
    path: '/api/workspace/v1/chat/message/status',
    summary: 'Look up a message’s delivery status',
    description:
      'The newest status of an outbound message (never backwards: accepted < sent < delivered < read; `failed` ' +
      "carries the provider's `error` and stays unless a later `delivered`/`read` proves delivery; before its " +
      'provider call a queued send is `scheduled`, `queued` or `sending`, and one never sent is `cancelled` with ' +
      'its `reason`), or an inbound ' +
      'message received from a customer (`direction: inbound`, status `delivered`). A msgid outside the channels ' +
      'this key may use and a msgid that does not exist both give 403, so identifiers cannot be probed across tenants.',
    params: z.object({ msgid: msgidParam }),
    response: okEnvelope(messageStatusSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    example: { msgid: EXAMPLE_IDS.sentMsgid },
  }),
  cancel: endpoint({
    operation: 'workspace.chat.message.cancel',
    path: '/api/workspace/v1/chat/message/cancel',
    summary: 'Cancel a scheduled message',
    description:
      'A message sent with `scheduledAt` (chat/templates/send) that has not gone yet becomes `cancelled` and is ' +
      'never sent. Any other message (sent, being sent, already cancelled, inbound): 400 `message_not_scheduled`. ' +
      'Keyed by `msgid` alone, like chat/message/status: another tenant’s msgid or an unknown one is 403.',
    params: z.object({ msgid: msgidParam }),
    response: okEnvelope(messageCancelResult),
    rateClass: 'api_message',
    access: { scope: 'workspace' },
    errors: ['message_not_scheduled'],
    example: { msgid: EXAMPLE_IDS.scheduledMsgid },
  }),
  send: endpoint({
    operation: 'workspace.chat.message.send',
    path: '/api/workspace/v1/chat/message/send',
    summary: 'Send a session (free-form) message',
    description: [
      'A text, image, document, audio or video message to a customer, by `to` or `contactId` (a new phone becomes a ' +
        'contact named by the phone). Reply `{msgid, status: "accepted", to, type}`, message `Message queued`; its ' +
        'status moves on like a template’s (chat/message/status, `message.status.updated`).',
      'Also `type: "interactive"` with `interactive` (reply buttons, a list, or a link button, by `kind`), ' +
        '`type: "reaction"` with `reaction: {msgid, emoji}` (a message of the same conversation, either direction, ' +
        `at most ${REACTION_MAX_AGE_DAYS} days old; \`emoji: ""\` removes it; only \`sent\` is reported for it) and ` +
        '`type: "location"` with `location`. Each of WhatsApp’s limits (docs/whatsapp.md) is checked before the ' +
        'provider is called: 400 `invalid_request` naming the field by its path ' +
        '(`interactive.buttons.1.title: must be at most 20 characters`). A customer’s tap on a button or a list row ' +
        'comes back in `message.received` with its `interactive.id`.',
      WINDOW_RULE,
      '`replyTo` quotes a message of the same conversation (another msgid: 400). On a WhatsApp Cloud API channel ' +
        'Meta’s refusals map as in chat/templates/send (400 `provider_rejected` with Meta’s code and text, e.g. ' +
        '131047; 502 `provider_unauthorized`; 503 `provider_unavailable`); none of them records a message.',
    ].join('\n\n'),
    params: sessionSendParams,
    response: okEnvelope(sessionSendResult),
    rateClass: 'api_message',
    access: { scope: 'workspace' },
    errors: ['no_channel', 'contact_not_found', 'session_window_closed', 'service_unavailable', ...PROVIDER_ERRORS],
    example: {
      channelId: EXAMPLE_IDS.channelId,
      to: '15550000001',
      text: 'Hi Ada, order A-1001 ships today.',
      replyTo: EXAMPLE_IDS.customerMsgid,
    },
    moreExamples: {
      buttons: {
        summary: 'Reply buttons: the customer’s tap comes back with its id',
        value: {
          channelId: EXAMPLE_IDS.channelId,
          to: '15550000001',
          type: 'interactive',
          interactive: {
            kind: 'buttons',
            body: 'Hi Ada, how can we help with order A-1001?',
            footer: 'Acme Support',
            buttons: [
              { id: 'track_order', title: 'Track order' },
              { id: 'talk_to_us', title: 'Talk to us' },
            ],
          },
        },
      },
      list: {
        summary: 'A list of choices in sections, behind a button',
        value: {
          channelId: EXAMPLE_IDS.channelId,
          to: '15550000001',
          type: 'interactive',
          interactive: {
            kind: 'list',
            header: { text: 'Delivery of A-1001' },
            body: 'When should we deliver?',
            button: 'Pick a slot',
            sections: [
              {
                title: 'Tomorrow',
                rows: [
                  { id: 'slot_am', title: 'Morning', description: '8:00–12:00' },
                  { id: 'slot_pm', title: 'Afternoon', description: '12:00–18:00' },
                ],
              },
              { title: 'Later', rows: [{ id: 'slot_fri', title: 'Friday' }] },
            ],
          },
        },
      },
      ctaUrl: {
        summary: 'A button that opens a link',
        value: {
          channelId: EXAMPLE_IDS.channelId,
          to: '15550000001',
          type: 'interactive',
          interactive: {
            kind: 'cta_url',
            body: 'Follow order A-1001 on its way.',
            displayText: 'Track it',
            url: 'https://shop.example.com/track/A-1001',
          },
        },
      },
      reaction: {
        summary: 'A reaction to the customer’s message',
        value: {
          channelId: EXAMPLE_IDS.channelId,
          to: '15550000001',
          type: 'reaction',
          reaction: { msgid: EXAMPLE_IDS.customerMsgid, emoji: '👍' },
        },
      },
      location: {
        summary: 'A location',
        value: {
          channelId: EXAMPLE_IDS.channelId,
          to: '15550000001',
          type: 'location',
          location: { latitude: 52.3676, longitude: 4.9041, name: 'Acme Depot', address: 'Dam 1, Amsterdam' },
        },
      },
    },
    failureExamples: {
      buttonTitleTooLong: {
        summary: 'a reply button’s title past WhatsApp’s 20 characters: named by its path',
        status: 400,
        error: 'invalid_request',
        message: 'interactive.buttons.1.title: must be at most 20 characters',
        request: {
          channelId: EXAMPLE_IDS.channelId,
          to: '15550000001',
          type: 'interactive',
          interactive: {
            kind: 'buttons',
            body: 'How can we help?',
            buttons: [
              { id: 'track_order', title: 'Track order' },
              { id: 'talk_to_us', title: 'Talk to a human being' },
            ],
          },
        },
      },
      textRequired: {
        summary: 'a text message without its text',
        status: 400,
        error: 'invalid_request',
        message: 'text: is required for type text',
      },
      sessionWindowClosed: {
        summary: 'the customer never wrote (or not in the last 24 hours): send a template instead',
        status: 400,
        error: 'session_window_closed',
        message:
          '15550000004 has never written to this channel, so no 24-hour window for session messages is open: ' +
          'send a template (chat/templates/send) instead.',
        request: { channelId: EXAMPLE_IDS.channelId, to: '15550000004', text: 'Hi Katherine!' },
      },
    },
  }),
  read: endpoint({
    operation: 'workspace.chat.message.read',
    path: '/api/workspace/v1/chat/message/read',
    summary: 'Mark a customer’s message read',
    description:
      'That message and every earlier unread inbound message of its conversation become `read` (as on WhatsApp, ' +
      'where the customer sees blue ticks; one Graph call), and the conversation’s `unreadCount` drops accordingly. ' +
      'Repeating it answers 200 and calls the provider no more, unless `typing` asks for the typing indicator ' +
      '(Meta’s `typing_indicator`, sent with the read receipt; the sandbox accepts it). An outbound msgid: 400; an ' +
      'unknown msgid or another tenant’s: 403.',
    params: z.object({
      msgid: z
        .string({ required_error: 'is required' })
        .min(1, 'must not be empty')
        .max(200, 'must be at most 200 characters')
        .describe('An inbound message’s msgid'),
      typing: z
        .boolean()
        .optional()
        .describe(
          'Also show the customer “typing…” (until your reply arrives, or for 25 seconds): for when the answer ' +
            'takes a moment',
        ),
    }),
    response: okEnvelope(messageReadResult),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // The customer sees blue ticks (a provider call); a repeat calls the provider no more.
    effects: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
    errors: ['service_unavailable', ...PROVIDER_ERRORS],
    example: { msgid: EXAMPLE_IDS.customerMsgid },
    failureExamples: {
      outbound: {
        summary: 'an outbound msgid',
        status: 400,
        error: 'invalid_request',
        message: 'msgid: only a customer’s message can be marked read',
        request: { msgid: 'wamid.DEMO0001' },
      },
    },
  }),
};
