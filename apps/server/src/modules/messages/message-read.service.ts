import { ValidationError } from '../../kit/errors.js';
import type { CallerContext } from '../../kit/context.js';
import { Channel } from '../channels/index.js';
import { findAccessibleMessage } from './message.service.js';
import type { ReadOptions } from './messaging-provider.port.js';
import { requireProvider, type MessagingProviders } from './messaging-providers.js';
import { movedTo, writeStatuses } from './status-writer.js';

export interface ReadResult {
  msgid: string;
  status: 'read';
  markedRead: number;
}

/**
 * chat/message/read: as on WhatsApp, the message and every earlier unread inbound message of its conversation
 * become `read` (the conversation's unread count follows by trigger), through the status writer (customers'
 * messages send no `message.status.updated`: the caller read them). The provider is told first, so a refusal
 * changes nothing here; a message already read is not reported again, unless the typing indicator is asked for.
 */
export async function markMessageRead(
  ctx: CallerContext,
  providers: MessagingProviders,
  msgid: string,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const message = await findAccessibleMessage(ctx, msgid);
  if (message.direction !== 'inbound')
    throw ValidationError.field('msgid', 'only a customer’s message can be marked read');
  // The typing indicator goes with a read receipt, so asking for it calls the provider again.
  if (message.status === 'read' && !options.typing) return { msgid, status: 'read', markedRead: 0 };
  const channel = await ctx.em.findOneOrFail(Channel, message.channel.id, { fields: ['provider'] });
  await requireProvider(providers, channel.provider).markRead(channel.id, msgid, options);
  if (message.status === 'read') return { msgid, status: 'read', markedRead: 0 };
  // Compared in SQL: the stored time has microseconds, a JavaScript Date would cut them off.
  const read = await ctx.em.transactional((tx) =>
    writeStatuses(tx, {
      sql: `select ${movedTo({ status: `'read'` })}
              from messages m
             where m.channel_id = ? and m.direction = 'inbound' and m.status <> 'read'
               and ${message.contact ? 'm.contact_id = ?' : 'm.id = ?'}
               and m.created_at <= (select created_at from messages where id = ?)
             order by m.id
               for update of m`,
      params: [message.channel.id, message.contact?.id ?? message.id, message.id],
    }),
  );
  const markedRead = read.length;
  return { msgid, status: 'read', markedRead };
}
