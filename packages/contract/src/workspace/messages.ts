import { z } from 'zod';
import { endpoint, named, okEnvelope } from '../common/index.js';

export const MESSAGE_STATUSES = ['accepted', 'sent', 'delivered', 'read', 'failed'] as const;
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
    params: z.object({
      msgid: z
        .string({ required_error: 'is required' })
        .min(1, 'must not be empty')
        .max(200, 'must be at most 200 characters'),
    }),
    response: okEnvelope(messageStatusSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    example: { msgid: 'wamid.DEMO0001' },
  }),
};
