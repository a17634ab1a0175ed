import { z } from 'zod';
import { endpoint, idSchema, named, okEnvelope, timestampSchema } from '../common/index.js';

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
/** The statuses a provider reports (its answer to the send, then its status webhooks). */
export const PROVIDER_STATUSES = ['accepted', 'sent', 'delivered', 'read', 'failed'] as const;
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
  }),
);
export type MessageError = z.infer<typeof messageErrorSchema>;
/** A message's `error`, wherever it appears (status lookups, status events). */
export const messageErrorField = messageErrorSchema.optional().describe('Present only when `status` is `failed`.');

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

/** One message of a conversation, as chat/messages/list shows it. */
export const messageSchema = named(
  'Message',
  z.object({
    msgid: z.string(),
    direction: z.enum(MESSAGE_DIRECTIONS),
    type: z.enum(MESSAGE_TYPES),
    status: z.enum(MESSAGE_STATUSES),
    contactId: idSchema.nullable().describe('The contact the conversation is with'),
    from: z.string().nullable().describe('The customer’s phone digits (inbound); null for outbound'),
    to: z.string().nullable().describe('The recipient’s phone digits (outbound); null for inbound'),
    text: z.string().nullable().describe('A text’s body or a media caption; null otherwise'),
    templateName: z.string().nullable(),
    media: messageMediaSchema.nullable(),
    replyTo: z.string().nullable().describe('The msgid this message quotes'),
    error: messageErrorField,
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
    status: z.enum(MESSAGE_STATUSES),
    direction: z.enum(MESSAGE_DIRECTIONS),
    type: z.enum(MESSAGE_TYPES),
    error: messageErrorField,
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
  );

export const messageCancelResult = named(
  'MessageCancelResult',
  z.object({ msgid: z.string(), status: z.enum(MESSAGE_STATUSES).describe('`cancelled`') }),
);
export type MessageCancelResult = z.infer<typeof messageCancelResult>;

export const messagesContract = {
  status: endpoint({
    operation: 'workspace.chat.message.status',
    path: '/api/workspace/v1/chat/message/status',
    summary: 'Look up a message’s delivery status',
    description:
      'The newest status of an outbound message (never backwards: accepted < sent < delivered < read; `failed` ' +
      "carries the provider's `error` and stays unless a later `delivered`/`read` proves delivery), or an inbound " +
      'message received from a customer (`direction: inbound`, status `delivered`). A msgid outside the channels ' +
      'this key may use and a msgid that does not exist both give 403, so identifiers cannot be probed across tenants.',
    params: z.object({ msgid: msgidParam }),
    response: okEnvelope(messageStatusSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    example: { msgid: 'wamid.DEMO0001' },
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
    example: { msgid: 'sbm.DEMO0000000000000000000000000001' },
  }),
};
