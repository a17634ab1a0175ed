import type { EntityManager } from '@mikro-orm/postgresql';
import type { Conversation, ConversationStatus, MESSAGE_DIRECTIONS, Message } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { NotFoundError } from '../../kit/errors.js';
import { isoTime, isoTimestamp } from '../../kit/iso-timestamp.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import { assertInChannel, type ScopedChannel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import { NO_ASSIGNEE } from './conversation-state-count.entity.js';

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
       then json_build_object('code', m.error_code, 'title', coalesce(m.error_title, '')) end as error, m.reason,
  m.automation_id as "automationId", m.broadcast_id as "broadcastId", ${isoTimestamp('m.created_at', 'createdAt')},
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
    ctx.em.execute<(Message & { error: Message['error'] | null; reason: Message['reason'] | null })[]>(
      `select ${MESSAGE_COLUMNS} from messages m where ${condition}
        order by m.created_at desc, m.id desc limit ? offset ?`,
      [...params, query.limit, offsetOf(query)],
    ),
    ctx.em.execute<{ total: number }[]>(`select count(*)::int as total from messages m where ${condition}`, params),
  ]);
  return {
    data: data.map(({ error, reason, ...message }): Message => ({
      ...message,
      ...(error ? { error } : {}),
      ...(reason ? { reason } : {}),
    })),
    pagination: paginationOf(query.page, query.limit, count!.total),
  };
}

export interface ConversationsQuery {
  page: number;
  limit: number;
  unread?: boolean;
  status?: ConversationStatus | ConversationStatus[];
  /** A user id, `me` (the caller) or `none` (unassigned). */
  assigneeId?: string;
}

/** A conversation as chat/conversations/list shows it, from `conversations c` narrowed by `where`. */
function conversationRows(
  em: EntityManager,
  where: { sql: string; params: unknown[] },
  page: { limit: number; offset: number },
) {
  return em.execute<Conversation[]>(
    `select ct.id as "contactId", ct.phone, ct.name,
            json_build_object('msgid', m.msgid, 'direction', m.direction, 'type', m.type, 'text', m.body,
                              'createdAt', ${isoTime('m.created_at')}) as "lastMessage",
            c.unread_count as "unreadCount", c.status,
            ${isoTime('c.snoozed_until')} as "snoozedUntil",
            case when u.id is not null then json_build_object('id', u.id, 'name', u.name) end as assignee,
            ${isoTime('c.last_inbound_at')} as "lastInboundAt", ${isoTime('c.resolved_at')} as "resolvedAt",
            ${isoTime(`c.last_inbound_at + interval '24 hours'`)} as "windowExpiresAt"
       from (select * from conversations c where ${where.sql}
              order by c.last_activity_at desc, c.contact_id desc limit ? offset ?) c
       join contacts ct on ct.id = c.contact_id
       join messages m on m.id = c.last_message_id
       left join users u on u.id = c.assignee_id
      order by c.last_activity_at desc, c.contact_id desc`,
    [...where.params, page.limit, page.offset],
  );
}

/** One conversation (channel + contact) as the list shows it. */
export async function conversationOf(em: EntityManager, channelId: string, contactId: string): Promise<Conversation> {
  const [view] = await conversationRows(
    em,
    { sql: 'c.channel_id = ? and c.contact_id = ?', params: [channelId, contactId] },
    { limit: 1, offset: 0 },
  );
  return view!;
}

/** The list's filters as SQL over `conversations c` (each has its index), and over `conversation_state_counts`. */
function conversationFilters(ctx: CallerContext, channelId: string, query: ConversationsQuery) {
  const rows = { sql: ['c.channel_id = ?'], params: [channelId] as unknown[] };
  const counts = { sql: ['channel_id = ?'], params: [channelId] as unknown[] };
  const statuses = query.status === undefined ? [] : [query.status].flat();
  if (statuses.length) {
    const list = statuses.map(() => '?').join(', ');
    rows.sql.push(`c.status in (${list})`);
    rows.params.push(...statuses);
    counts.sql.push(`status in (${list})`);
    counts.params.push(...statuses);
  }
  if (query.assigneeId === 'none') {
    rows.sql.push('c.assignee_id is null');
    counts.sql.push('assignee_key = ?');
    counts.params.push(NO_ASSIGNEE);
  } else if (query.assigneeId !== undefined) {
    const assignee = query.assigneeId === 'me' ? ctx.caller.userId : query.assigneeId;
    rows.sql.push('c.assignee_id = ?');
    rows.params.push(assignee);
    counts.sql.push('assignee_key = ?');
    counts.params.push(assignee);
  }
  if (query.unread) rows.sql.push('c.unread_count > 0');
  return { rows, counts, byState: counts.sql.length > 1 };
}

/**
 * chat/conversations/list: the channel's conversations, most recent activity first, from the conversations table;
 * `total` from the trigger-kept counters (migrations ..._conversation_counts, ..._conversation_lifecycle), never a
 * count of the channel's conversations.
 */
export async function listConversations(ctx: CallerContext, channelId: string, query: ConversationsQuery) {
  const { rows, counts, byState } = conversationFilters(ctx, channelId, query);
  const column = query.unread ? 'unread' : 'total';
  const [data, [count]] = await Promise.all([
    conversationRows(
      ctx.em,
      { sql: rows.sql.join(' and '), params: rows.params },
      { limit: query.limit, offset: offsetOf(query) },
    ),
    byState
      ? ctx.em.execute<{ total: number }[]>(
          `select coalesce(sum(${column}), 0)::int as total from conversation_state_counts
            where ${counts.sql.join(' and ')}`,
          counts.params,
        )
      : ctx.em.execute<{ total: number }[]>(
          `select coalesce(max(${column}), 0) as total from channel_conversation_counts where channel_id = ?`,
          [channelId],
        ),
  ]);
  return { data, pagination: paginationOf(query.page, query.limit, count!.total) };
}
