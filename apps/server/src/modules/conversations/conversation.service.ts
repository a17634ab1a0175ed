import type { EntityManager } from '@mikro-orm/postgresql';
import type { Conversation, ConversationStatus, MESSAGE_DIRECTIONS, Message } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { NotFoundError } from '../../kit/errors.js';
import { isoTime, isoTimestamp } from '../../kit/iso-timestamp.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import { executePrepared } from '../../kit/prepared-statement.js';
import { assertInChannel, type ScopedChannel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import { INBOX_LAST_MESSAGE, NO_ASSIGNEE } from './conversation.sql.js';
import { ASSIGNEE_KEY } from './conversation.entity.js';

/*
 * Hand-written SQL for the two hot lists, returning plain rows (STACK: hydrated entities serialise several times
 * slower): each page is read off its index in listing order (messages_conversation_index, the conversations indexes;
 * the EXPLAIN test in tests/conversations shows it); a message's page holds what it shows, an inbox page all but
 * the assignees' names.
 */

export interface MessagesQuery {
  page: number;
  limit: number;
  /** One conversation's messages (conversationContact resolves it); the channel's when left out. */
  contactId?: string;
  direction?: (typeof MESSAGE_DIRECTIONS)[number];
}

const MESSAGE_COLUMNS = `m.msgid, m.direction, m.type, m.status, m.contact_id as "contactId", m."from", m."to",
  m.body as text, m.template_name as "templateName", m.media, m.reply_to as "replyTo", m.interactive, m.reaction,
  m.location,
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

/** A row of the inbox's page, flat: PostgreSQL's json_build_object cost more than the rest of the page together. */
type InboxRow = Omit<Conversation, 'lastMessage' | 'assignee'> &
  Conversation['lastMessage'] & { assigneeId: string | null; assigneeName: string | null };

/** The newest message's summary, as the inbox triggers keep it on the conversation's row (conversation.sql.ts). */
const LAST_MESSAGE_COLUMNS = INBOX_LAST_MESSAGE.map(({ column, field }) => `c.${column} as ${field}`).join(', ');

/** The row as the API shows it, in the contract's field order. */
const conversationView = (row: InboxRow): Conversation => ({
  contactId: row.contactId,
  phone: row.phone,
  name: row.name,
  lastMessage: {
    msgid: row.msgid,
    direction: row.direction,
    type: row.type,
    text: row.text,
    interactive: row.interactive,
    createdAt: row.createdAt,
  },
  unreadCount: row.unreadCount,
  status: row.status,
  snoozedUntil: row.snoozedUntil,
  assignee: row.assigneeId === null ? null : { id: row.assigneeId, name: row.assigneeName! },
  lastInboundAt: row.lastInboundAt,
  resolvedAt: row.resolvedAt,
  windowExpiresAt: row.windowExpiresAt,
});

/**
 * A page of conversations as chat/conversations/list shows it, from `conversations c` narrowed by `where`: the row
 * carries everything but the assignee's name (kept by conversation.sql.ts's triggers), so the page is one index range
 * of `conversations` and a lookup of its few assignees. Prepared (executePrepared) outside a transaction.
 */
async function conversationRows(
  em: EntityManager,
  where: { sql: string; params: unknown[] },
  page: { limit: number; offset: number },
): Promise<Conversation[]> {
  const rows = await executePrepared<InboxRow>(
    em,
    `select c.contact_id as "contactId", c.contact_phone as phone, c.contact_name as name,
            ${LAST_MESSAGE_COLUMNS},
            ${isoTime('c.last_activity_at')} as "createdAt",
            c.unread_count as "unreadCount", c.status, ${isoTime('c.snoozed_until')} as "snoozedUntil",
            u.id as "assigneeId", u.name as "assigneeName",
            ${isoTime('c.last_inbound_at')} as "lastInboundAt", ${isoTime('c.resolved_at')} as "resolvedAt",
            ${isoTime(`c.last_inbound_at + interval '24 hours'`)} as "windowExpiresAt"
       from (select * from conversations c where ${where.sql}
              order by c.last_activity_at desc, c.contact_id desc limit ? offset ?) c
       left join users u on u.id = c.assignee_id
      order by c.last_activity_at desc, c.contact_id desc`,
    [...where.params, page.limit, page.offset],
  );
  return rows.map(conversationView);
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

/**
 * The list's filters as SQL over `conversations c`, each combination matching an index (the recent, unread, status,
 * assignee and assignee-with-status indexes of conversation.entity.ts; several statuses read the listing order or
 * the assignee's, filtered), and over `conversation_state_counts`. The assignee is compared by its key
 * (ASSIGNEE_KEY): the indexes' expression, the counts' `assignee_key`.
 */
function conversationFilters(ctx: CallerContext, channelId: string, query: ConversationsQuery) {
  const rows = { sql: ['c.channel_id = ?'], params: [channelId] as unknown[] };
  const counts = { sql: ['channel_id = ?'], params: [channelId] as unknown[] };
  const statuses = query.status === undefined ? [] : [...new Set([query.status].flat())];
  if (statuses.length) {
    const list = statuses.length === 1 ? '= ?' : `in (${statuses.map(() => '?').join(', ')})`;
    rows.sql.push(`c.status ${list}`);
    rows.params.push(...statuses);
    counts.sql.push(`status ${list}`);
    counts.params.push(...statuses);
  }
  if (query.assigneeId !== undefined) {
    const me = query.assigneeId === 'me' ? ctx.caller.userId : query.assigneeId;
    const assignee = query.assigneeId === 'none' ? NO_ASSIGNEE : me;
    rows.sql.push(`${ASSIGNEE_KEY} = ?::uuid`);
    rows.params.push(assignee);
    counts.sql.push('assignee_key = ?');
    counts.params.push(assignee);
  }
  if (query.unread) rows.sql.push('c.unread_count > 0');
  return { rows, counts, byState: counts.sql.length > 1 };
}

/**
 * chat/conversations/list: the channel's conversations, most recent activity first, from the conversations table;
 * `total` from the trigger-kept counters (conversation.sql.ts), never a
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
      ? executePrepared<{ total: number }>(
          ctx.em,
          `select coalesce(sum(${column}), 0)::int as total from conversation_state_counts
            where ${counts.sql.join(' and ')}`,
          counts.params,
        )
      : executePrepared<{ total: number }>(
          ctx.em,
          `select coalesce(max(${column}), 0) as total from channel_conversation_counts where channel_id = ?`,
          [channelId],
        ),
  ]);
  return { data, pagination: paginationOf(query.page, query.limit, count!.total) };
}
