import { ValidationError } from '../../kit/errors.js';
import type { CallerContext } from '../../kit/context.js';
import { Channel } from '../channels/index.js';
import { findAccessibleMessage } from './message.service.js';
import { Message } from './message.entity.js';
import { requireProvider, type MessagingProviders } from './messaging-providers.js';

export interface ReadResult {
  msgid: string;
  status: 'read';
  markedRead: number;
}

/**
 * chat/message/read: as on WhatsApp, the message and every earlier unread inbound message of its conversation
 * become `read` (the conversation's unread count follows by trigger). The provider is told first, so a refusal
 * changes nothing here; a message already read is not reported again.
 */
export async function markMessageRead(
  ctx: CallerContext,
  providers: MessagingProviders,
  msgid: string,
): Promise<ReadResult> {
  const message = await findAccessibleMessage(ctx, msgid);
  if (message.direction !== 'inbound')
    throw ValidationError.field('msgid', 'only a customer’s message can be marked read');
  if (message.status === 'read') return { msgid, status: 'read', markedRead: 0 };
  const channel = await ctx.em.findOneOrFail(Channel, message.channel.id, { fields: ['provider'] });
  await requireProvider(providers, channel.provider).markRead(channel.id, msgid);
  const markedRead = await ctx.em.nativeUpdate(
    Message,
    {
      channel: message.channel.id,
      direction: 'inbound',
      status: { $ne: 'read' },
      createdAt: { $lte: message.createdAt },
      ...(message.contact ? { contact: message.contact.id } : { id: message.id }),
    },
    { status: 'read', updatedAt: new Date() },
  );
  return { msgid, status: 'read', markedRead };
}
