import type { Conversation, MESSAGE_DIRECTIONS, Message } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { NotFoundError } from '../../kit/errors.js';
import { isoTime, isoTimestamp } from '../../kit/iso-timestamp.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import { assertInChannel, type ScopedChannel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';

/*
 * Hand-written SQL for the two hot lists, returning plain rows (STACK: hydrated entities serialise several times
 * slower): each page is read off its index in listing order (messages_conversation_index,
 * conversations_channel_recent_index; the EXPLAIN test in tests/conversations shows it) and joined to what it shows.
 */

export interface MessagesQuery {
  page: number;
  limit: number;
  /** One conversation's messages (conversationContact resolves it); the channel's when left out. */
  contactId?: string;
  direction?: (typeof MESSAGE_DIRECTIONS)[number];
}

const MESSAGE_COLUMNS = `m.msgid, m.direction, m.type, m.status, m.contact_id as "contactId", m."from", m."to",
  m.body as text, m.template_name as "templateName", m.media, m.reply_to as "replyTo",
  case when m.status = 'failed' and m.error_code is not null
       then json_build_object('code', m.error_code, 'title', coalesce(m.error_title, '')) end as error,
  m.automation_id as "automationId", ${isoTimestamp('m.created_at', 'createdAt')},
  ${isoTimestamp('m.updated_at', 'updatedAt')}`;

const contactNotFound = (ref: string) => () =>
  new NotFoundError('contact_not_found', `No contact ${ref} in this channel.`);

/** The conversation's contact: by id (assertInChannel's rule) or by phone in the channel; none without either. */
export async function conversationContact(
  ctx: CallerContext,
  channel: ScopedChannel,
  query: { contactId?: string; phone?: string },
): Promise<string | undefined> {
  if (query.contactId !== undefined) {
    const found = await ctx.em.findOne(Contact, { id: query.contactId }, { fields: ['channel'] });
    assertInChannel(ctx, channel, found?.channel.id, contactNotFound(query.contactId));
    return query.contactId;
  }
  if (query.phone === undefined) return undefined;
  const found = await ctx.em.findOne(Contact, { channel: channel.id, phone: query.phone }, { fields: ['id'] });
  if (!found) throw contactNotFound(`with phone ${query.phone}`)();
  return found.id;
}

/** chat/messages/list: newest first (created_at, then id), a channel's or one conversation's. */
export async function listMessages(ctx: CallerContext, channelId: string, query: MessagesQuery) {
  const { contactId } = query;
  const where = ['m.channel_id = ?'];
  const params: unknown[] = [channelId];
  if (contactId !== undefined) {
    where.push('m.contact_id = ?');
    params.push(contactId);
  }
  if (query.direction !== undefined) {
    where.push('m.direction = ?');
    params.push(query.direction);
  }
  const condition = where.join(' and ');
  const [data, [count]] = await Promise.all([
    ctx.em.execute<(Message & { error: Message['error'] | null })[]>(
      `select ${MESSAGE_COLUMNS} from messages m where ${condition}
        order by m.created_at desc, m.id desc limit ? offset ?`,
      [...params, query.limit, offsetOf(query)],
    ),
    ctx.em.execute<{ total: number }[]>(`select count(*)::int as total from messages m where ${condition}`, params),
  ]);
  return {
    data: data.map(({ error, ...message }): Message => (error ? { ...message, error } : message)),
    pagination: paginationOf(query.page, query.limit, count!.total),
  };
}

export interface ConversationsQuery {
  page: number;
  limit: number;
  unread?: boolean;
}

/** chat/conversations/list: the channel's conversations, most recent activity first, from the conversations table. */
export async function listConversations(ctx: CallerContext, channelId: string, query: ConversationsQuery) {
  const condition = `c.channel_id = ?${query.unread ? ' and c.unread_count > 0' : ''}`;
  const [data, [count]] = await Promise.all([
    ctx.em.execute<Conversation[]>(
      `select ct.id as "contactId", ct.phone, ct.name,
              json_build_object('msgid', m.msgid, 'direction', m.direction, 'type', m.type, 'text', m.body,
                                'createdAt', ${isoTime('m.created_at')}) as "lastMessage",
              c.unread_count as "unreadCount",
              ${isoTime(`c.last_inbound_at + interval '24 hours'`)} as "windowExpiresAt"
         from (select * from conversations c where ${condition}
                order by c.last_activity_at desc, c.contact_id desc limit ? offset ?) c
         join contacts ct on ct.id = c.contact_id
         join messages m on m.id = c.last_message_id
        order by c.last_activity_at desc, c.contact_id desc`,
      [channelId, query.limit, offsetOf(query)],
    ),
    // The trigger-kept counter (migration ..._conversation_counts), not a count of the channel's conversations.
    ctx.em.execute<{ total: number }[]>(
      `select coalesce(max(${query.unread ? 'unread' : 'total'}), 0) as total
         from channel_conversation_counts where channel_id = ?`,
      [channelId],
    ),
  ]);
  return { data, pagination: paginationOf(query.page, query.limit, count!.total) };
}
