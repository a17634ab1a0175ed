import { z } from 'zod';
import { endpoint, named, okEnvelope } from '../common/index.js';

export const MESSAGE_STATUSES = ['accepted', 'sent', 'delivered', 'read', 'failed'] as const;
export const MESSAGE_DIRECTIONS = ['outbound', 'inbound'] as const;
export const MESSAGE_TYPES = ['text', 'template', 'image', 'document', 'audio', 'video', 'location', 'interactive'] as const;

export const messageStatusSchema = named('MessageStatus', z.object({
  msgid: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  direction: z.enum(MESSAGE_DIRECTIONS),
  type: z.enum(MESSAGE_TYPES),
}));
export type MessageStatus = z.infer<typeof messageStatusSchema>;

export const messagesContract = {
  status: endpoint({
    operation: 'workspace.chat.message.status',
    path: '/api/workspace/v1/chat/message/status',
    summary: 'Look up a message’s delivery status',
    description:
      'A msgid outside the channels this key may use and a msgid that does not exist both give 403, so identifiers cannot be probed across tenants.',
    params: z.object({
      msgid: z.string({ required_error: 'is required' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    }),
    response: okEnvelope(messageStatusSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    example: { msgid: 'wamid.DEMO0001' },
  }),
};
