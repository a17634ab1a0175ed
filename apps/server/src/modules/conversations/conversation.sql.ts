import type { Conversation, MESSAGE_STATUSES } from '@switchboard/contract';
import { statementTrigger, type SqlDefinitions, type SqlTrigger } from '../../kit/sql-definitions.ts';

type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Stands for "no assignee" in the state counts' key (a primary key column cannot be null) and the indexes' key. */
export const NO_ASSIGNEE = '00000000-0000-0000-0000-000000000000';
const NONE = `'${NO_ASSIGNEE}'::uuid`;

/** The send pipeline's outbox: a message in one of these statuses has not been sent yet. */
const UNSENT: readonly MessageStatus[] = ['queued', 'scheduled', 'sending'];
const UNSENT_LIST = `(${UNSENT.map((status) => `'${status}'`).join(', ')})`;

/**
 * What chat/conversations/list shows of a conversation's newest message (its `lastMessage`), kept on the
 * conversation's row so that a page of the inbox reads one index of `conversations` and nothing else: the field, the
 * row's column, and the message's column it copies. The triggers below write it; conversation.service.ts reads it.
 */
export const INBOX_LAST_MESSAGE = [
  { field: 'msgid', column: 'last_message_msgid', from: 'msgid' },
  { field: 'direction', column: 'last_message_direction', from: 'direction' },
  { field: 'type', column: 'last_message_type', from: 'type' },
  { field: 'text', column: 'last_message_text', from: 'body' },
  { field: 'interactive', column: 'last_message_interactive', from: 'interactive' },
] as const satisfies readonly { field: keyof Conversation['lastMessage']; column: string; from: string }[];

/** What a send writes on a queued message; the rest of the summary stays as it was queued. */
const SENT_CHANGES = ['msgid', 'body', 'status'];

/** A column of the newest message: the statement's when it is newer by the listing order (created_at, then id). */
const newest = (column: string) =>
  `${column} = case when (excluded.last_activity_at, excluded.last_message_id)
                          > (c.last_activity_at, c.last_message_id)
                      then excluded.${column} else c.${column} end`;

/**
 * The upsert of the conversations of `rows` (messages), once per statement: the counts, the contact's phone and name
 * (from `contacts`, when the conversation starts) and the newest message's summary. An inbound message's created_at
 * is when the customer sent it, so a late redelivery never moves the window back (greatest() skips nulls). In key
 * order, so that concurrent statements lock alike.
 */
const upsert = (rows: string) => `
        insert into conversations as c (channel_id, contact_id, last_message_id, last_activity_at, last_inbound_at,
                                        unread_count, contact_phone, contact_name,
                                        ${INBOX_LAST_MESSAGE.map(({ column }) => column).join(', ')})
        select distinct on (m.channel_id, m.contact_id) m.channel_id, m.contact_id, m.id, m.created_at,
               max(m.created_at) filter (where m.direction = 'inbound') over conversation,
               (count(*) filter (where m.direction = 'inbound' and m.status <> 'read') over conversation)::int,
               ct.phone, ct.name, ${INBOX_LAST_MESSAGE.map(({ from }) => `m.${from}`).join(', ')}
          from ${rows} m join contacts ct on ct.id = m.contact_id
        window conversation as (partition by m.channel_id, m.contact_id)
         order by m.channel_id, m.contact_id, m.created_at desc, m.id desc
        on conflict (channel_id, contact_id) do update set
          ${INBOX_LAST_MESSAGE.map(({ column }) => `${newest(column)},`).join('\n          ')}
          ${newest('last_message_id')},
          last_activity_at = greatest(c.last_activity_at, excluded.last_activity_at),
          last_inbound_at = greatest(c.last_inbound_at, excluded.last_inbound_at),
          unread_count = c.unread_count + excluded.unread_count,
          updated_at = now();`;

/**
 * The messages an update takes out of the outbox, sent (not cancelled): their old and new rows paired by a GROUP BY,
 * which PostgreSQL runs by hashing or sorting, never by comparing every row with every other (a join of the two
 * transition tables is planned once per connection and can turn quadratic on a plan made for tiny ones).
 */
const sentRows = () => {
  const kept = ['id', 'channel_id', 'contact_id', 'created_at', 'direction'];
  for (const { from } of INBOX_LAST_MESSAGE) if (!kept.includes(from) && !SENT_CHANGES.includes(from)) kept.push(from);
  const columns = [...kept, ...SENT_CHANGES].join(', ');
  return `(select ${kept.map((column) => `x.${column}`).join(', ')},
                  ${SENT_CHANGES.map((column) => `max(x.${column}) filter (where x.is_new) as ${column}`).join(', ')}
             from (select ${columns}, true as is_new
                     from new_rows
                    where contact_id is not null and status not in ${UNSENT_LIST} and status <> 'cancelled'
                   union all
                   select ${columns}, false
                     from old_rows where contact_id is not null and status in ${UNSENT_LIST}) x
            group by ${kept.map((column) => `x.${column}`).join(', ')}
           having bool_or(x.is_new) and bool_or(not x.is_new))`;
};

/**
 * A message joins its conversation (the inbox's order, `lastMessage`, the unread count) when it is sent, not while it
 * waits in the outbox: a message scheduled for next week, or cancelled, is not the conversation's news. Statement
 * triggers with transition tables: a broadcast's batch is one upsert of every conversation it touched, not one per
 * message. A contact's new name or phone is copied to its conversation in the same transaction; an inbound message
 * read (or unread again) moves its conversation's unread count.
 */
const INBOX_FUNCTIONS = [
  `create or replace function "conversations_messages_inserted"() returns trigger language plpgsql as $$
      begin
        ${upsert(`(select * from new_rows where contact_id is not null and status not in ${UNSENT_LIST})`)}
        return null;
      end $$;`,
  `create or replace function "conversations_messages_sent"() returns trigger language plpgsql as $$
      begin
        ${upsert(sentRows())}
        return null;
      end $$;`,
  `create or replace function "conversations_contact_changed"() returns trigger language plpgsql as $$
      begin
        update conversations set contact_phone = new.phone, contact_name = new.name where contact_id = new.id;
        return null;
      end $$;`,
  `create or replace function "conversations_message_read"() returns trigger language plpgsql as $$
      begin
        update conversations set
          unread_count = greatest(unread_count + case when new.status = 'read' then -1 else 1 end, 0),
          updated_at = now()
         where channel_id = new.channel_id and contact_id = new.contact_id;
        return null;
      end $$;`,
];

const INBOX_TRIGGERS: SqlTrigger[] = [
  statementTrigger('conversations_messages_insert', 'insert', 'messages', 'conversations_messages_inserted', {
    new: 'new_rows',
  }),
  statementTrigger('conversations_messages_sent', 'update', 'messages', 'conversations_messages_sent', {
    old: 'old_rows',
    new: 'new_rows',
  }),
  {
    name: 'conversations_contact_changed',
    table: 'contacts',
    create: `create trigger "conversations_contact_changed" after update of "name", "phone" on "contacts"
      for each row when (old.name is distinct from new.name or old.phone is distinct from new.phone)
      execute function "conversations_contact_changed"();`,
  },
  {
    name: 'conversations_message_status',
    table: 'messages',
    create: `create trigger "conversations_message_status" after update of "status" on "messages" for each row
         when (new.direction = 'inbound' and new.contact_id is not null
               and (old.status = 'read') is distinct from (new.status = 'read'))
         execute function "conversations_message_read"();`,
  },
];

/** The counters' upsert of a statement's per-key changes, but a deleted channel's (its counters went with it). */
const addTo = (table: string, key: string, changes: string) => `
        insert into ${table} as n (${key}, total, unread)
        select ${key}, total, unread from (${changes}) d
         where (total <> 0 or unread <> 0) and exists (select 1 from channels c where c.id = d.channel_id)
         order by ${key}
        on conflict (${key}) do update set total = n.total + excluded.total, unread = n.unread + excluded.unread;`;

/** Per key, what the statement's rows add (`sign` 1: inserted) or take away (-1: deleted). */
const changes = (key: string, rows: string, sign: 1 | -1) =>
  `select ${key}, ${sign} * count(*)::int as total, ${sign} * (count(*) filter (where unread_count > 0))::int as unread
     from ${rows} group by ${key}`;

const STATE_KEY = `channel_id, status, assignee_key`;
const stateRows = (rows: string) => `(select channel_id, status, coalesce(assignee_id, ${NONE}) as assignee_key,
       unread_count from ${rows}) r`;

/** What a statement of inserted (1) or deleted (-1) conversations adds to both counters. */
const countedRows = (rows: string, sign: 1 | -1) => `
        ${addTo('channel_conversation_counts', 'channel_id', changes('channel_id', rows, sign))}
        ${addTo('conversation_state_counts', STATE_KEY, changes(STATE_KEY, stateRows(rows), sign))}`;

/**
 * Exact totals for chat/conversations/list's `pagination.total`, unfiltered (`channel_conversation_counts`) and per
 * status and assignee (`conversation_state_counts`), kept in the writing transaction: counting a big inbox per request
 * is what bounded it. Inserts and deletes of conversations count once per statement; an update keeps its row trigger,
 * whose WHEN clause skips all but the rare update that moves a count. Only existing counters are decremented: when a
 * channel is deleted its counter rows may already be gone.
 */
const COUNT_FUNCTIONS = [
  `create or replace function "conversations_counted_inserted"() returns trigger language plpgsql as $$
      begin${countedRows('new_rows', 1)}
        return null;
      end $$;`,
  `create or replace function "conversations_counted_deleted"() returns trigger language plpgsql as $$
      begin${countedRows('old_rows', -1)}
        return null;
      end $$;`,
  `create or replace function "conversations_count_changed"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into channel_conversation_counts as n (channel_id, total, unread)
          values (new.channel_id, 1, (new.unread_count > 0)::int)
          on conflict (channel_id) do update set total = n.total + 1, unread = n.unread + excluded.unread;
        elsif tg_op = 'DELETE' then
          update channel_conversation_counts
             set total = total - 1, unread = unread - (old.unread_count > 0)::int
           where channel_id = old.channel_id;
        else
          update channel_conversation_counts
             set unread = unread + (new.unread_count > 0)::int - (old.unread_count > 0)::int
           where channel_id = new.channel_id;
        end if;
        return null;
      end $$;`,
  `create or replace function "conversations_state_counted"() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          update conversation_state_counts
             set total = total - 1, unread = unread - (old.unread_count > 0)::int
           where channel_id = old.channel_id and status = old.status
             and assignee_key = coalesce(old.assignee_id, ${NONE});
        end if;
        if tg_op in ('UPDATE', 'INSERT') then
          insert into conversation_state_counts as n (channel_id, status, assignee_key, total, unread)
          values (new.channel_id, new.status, coalesce(new.assignee_id, ${NONE}), 1, (new.unread_count > 0)::int)
          on conflict (channel_id, status, assignee_key) do update
            set total = n.total + 1, unread = n.unread + excluded.unread;
        end if;
        return null;
      end $$;`,
];

const COUNT_TRIGGERS: SqlTrigger[] = [
  statementTrigger('conversations_counted_insert', 'insert', 'conversations', 'conversations_counted_inserted', {
    new: 'new_rows',
  }),
  statementTrigger('conversations_counted_delete', 'delete', 'conversations', 'conversations_counted_deleted', {
    old: 'old_rows',
  }),
  {
    name: 'conversations_count_unread',
    table: 'conversations',
    create: `create trigger "conversations_count_unread" after update of "unread_count" on "conversations"
         for each row when ((old.unread_count > 0) is distinct from (new.unread_count > 0))
         execute function "conversations_count_changed"();`,
  },
  {
    name: 'conversations_state_update',
    table: 'conversations',
    create: `create trigger "conversations_state_update" after update of "status", "assignee_id", "unread_count"
         on "conversations" for each row
         when (old.status is distinct from new.status or old.assignee_id is distinct from new.assignee_id
               or (old.unread_count > 0) is distinct from (new.unread_count > 0))
         execute function "conversations_state_counted"();`,
  },
];

/** The inbox's rows and counts, kept by the writes to messages, contacts and conversations (see above). */
export const CONVERSATION_SQL: SqlDefinitions = {
  functions: [...INBOX_FUNCTIONS, ...COUNT_FUNCTIONS],
  triggers: [...INBOX_TRIGGERS, ...COUNT_TRIGGERS],
};
