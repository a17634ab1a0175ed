import type { QueryResult } from '@mikro-orm/core';
import { ValidationError } from '../../kit/errors.js';
import type { CallerContext } from '../../kit/context.js';
import { Channel } from '../channels/index.js';
import { findAccessibleMessage } from './message.service.js';
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
  // Compared in SQL: the stored time has microseconds, a JavaScript Date would cut them off.
  const { affectedRows: markedRead } = await ctx.em.execute<QueryResult>(
    `update messages set status = 'read', updated_at = now()
      where channel_id = ? and direction = 'inbound' and status <> 'read'
        and ${message.contact ? 'contact_id = ?' : 'id = ?'}
        and created_at <= (select created_at from messages where id = ?)`,
    [message.channel.id, message.contact?.id ?? message.id, message.id],
    'run',
  );
  return { msgid, status: 'read', markedRead };
}
