import { Migration } from '@mikro-orm/migrations';

/** Stands for "no assignee" in the state counts' key (as in Migration20261128140100_conversation_lifecycle). */
const NONE = `'00000000-0000-0000-0000-000000000000'::uuid`;

/** The counters' upsert of a statement's per-key changes, but a deleted channel's (its counters went with it). */
const ADD_TO = (table: string, key: string, changes: string) => `
        insert into ${table} as n (${key}, total, unread)
        select ${key}, total, unread from (${changes}) d
         where (total <> 0 or unread <> 0) and exists (select 1 from channels c where c.id = d.channel_id)
         order by ${key}
        on conflict (${key}) do update set total = n.total + excluded.total, unread = n.unread + excluded.unread;`;

/** Per key, what the statement's rows add (`sign` 1: inserted) or take away (-1: deleted). */
const CHANGES = (key: string, rows: string, sign: 1 | -1) =>
  `select ${key}, ${sign} * count(*)::int as total, ${sign} * (count(*) filter (where unread_count > 0))::int as unread
     from ${rows} group by ${key}`;

/** The outbox's statuses: a message in one of them has not been sent yet. */
const UNSENT = `('queued', 'scheduled', 'sending')`;

/**
 * The upsert of the conversations of `rows` (messages), once per statement: the newest message wins by the listing
 * order (created_at, then id), as the row trigger had it; in key order, so concurrent statements lock alike.
 */
const UPSERT = (rows: string) => `
        insert into conversations as c (channel_id, contact_id, last_message_id, last_activity_at, last_inbound_at,
                                         unread_count)
        select distinct on (m.channel_id, m.contact_id) m.channel_id, m.contact_id, m.id, m.created_at,
               max(m.created_at) filter (where m.direction = 'inbound') over conversation,
               (count(*) filter (where m.direction = 'inbound' and m.status <> 'read') over conversation)::int
          from ${rows} m
        window conversation as (partition by m.channel_id, m.contact_id)
         order by m.channel_id, m.contact_id, m.created_at desc, m.id desc
        on conflict (channel_id, contact_id) do update set
          last_message_id = case when c.last_message_id is null
                                   or (excluded.last_activity_at, excluded.last_message_id)
                                      > (c.last_activity_at, c.last_message_id)
                                 then excluded.last_message_id else c.last_message_id end,
          last_activity_at = greatest(c.last_activity_at, excluded.last_activity_at),
          last_inbound_at = greatest(c.last_inbound_at, excluded.last_inbound_at),
          unread_count = c.unread_count + excluded.unread_count,
          updated_at = now();`;

const STATE_KEY = `channel_id, status, assignee_key`;
const STATE_ROWS = (rows: string) => `(select channel_id, status, coalesce(assignee_id, ${NONE}) as assignee_key,
       unread_count from ${rows}) r`;

/**
 * A broadcast queues 100,000 messages in one INSERT … SELECT: the row triggers that kept conversations and their
 * counts made that one upsert of `conversations` and two updates of the channel's counter rows per message, and
 * every update of a row already updated in the same transaction walks the versions before it, so the statement
 * took minutes (docs/benchmarks.md, Broadcasts). The message insert and the conversations' insert and delete now fire
 * once per statement with transition tables: one upsert of every conversation the statement touched, and one
 * change per counter row. Updates of a conversation keep their row triggers: their WHEN clauses skip all but the
 * rare update that moves a count.
 *
 * And a message joins its conversation (the inbox's order, `lastMessage`) when it is sent, not while it waits in
 * the send pipeline's outbox: a message scheduled for next week, or cancelled, is not the conversation's news, and a
 * broadcast's start writes no conversations (they follow its sends, a dispatcher's batch at a time). The history
 * (chat/messages/list) shows outbox messages as before, with their status. An update that takes messages out of the
 * outbox (sent, accepted, failed; not cancelled) counts them then.
 */
export class ConversationStatementTriggers extends Migration {
  override name = 'Migration20261201120000_conversation_statement_triggers';

  override up(): void {
    this.addSql(`drop trigger "conversations_message_insert" on "messages";`);
    this.addSql(`drop function "conversations_message_inserted"();`);
    this.addSql(`create function "conversations_messages_inserted"() returns trigger language plpgsql as $$
      begin
        ${UPSERT(`(select * from new_rows where contact_id is not null and status not in ${UNSENT})`)}
        return null;
      end $$;`);
    this.addSql(`create trigger "conversations_messages_insert" after insert on "messages"
      referencing new table as new_rows for each statement execute function "conversations_messages_inserted"();`);
    this.addSql(`create function "conversations_messages_sent"() returns trigger language plpgsql as $$
      begin
        ${UPSERT(`(select n.* from new_rows n join old_rows o on o.id = n.id
                    where n.contact_id is not null and o.status in ${UNSENT}
                      and n.status not in ${UNSENT} and n.status <> 'cancelled')`)}
        return null;
      end $$;`);
    this.addSql(`create trigger "conversations_messages_sent" after update on "messages"
      referencing old table as old_rows new table as new_rows
      for each statement execute function "conversations_messages_sent"();`);

    this.addSql(`drop trigger "conversations_count_insert_delete" on "conversations";`);
    this.addSql(`drop trigger "conversations_state_insert_delete" on "conversations";`);
    this.addSql(`create function "conversations_counted_inserted"() returns trigger language plpgsql as $$
      begin
        ${ADD_TO('channel_conversation_counts', 'channel_id', CHANGES('channel_id', 'new_rows', 1))}
        ${ADD_TO('conversation_state_counts', STATE_KEY, CHANGES(STATE_KEY, STATE_ROWS('new_rows'), 1))}
        return null;
      end $$;`);
    this.addSql(`create function "conversations_counted_deleted"() returns trigger language plpgsql as $$
      begin
        ${ADD_TO('channel_conversation_counts', 'channel_id', CHANGES('channel_id', 'old_rows', -1))}
        ${ADD_TO('conversation_state_counts', STATE_KEY, CHANGES(STATE_KEY, STATE_ROWS('old_rows'), -1))}
        return null;
      end $$;`);
    this.addSql(`create trigger "conversations_counted_insert" after insert on "conversations"
      referencing new table as new_rows for each statement execute function "conversations_counted_inserted"();`);
    this.addSql(`create trigger "conversations_counted_delete" after delete on "conversations"
      referencing old table as old_rows for each statement execute function "conversations_counted_deleted"();`);
  }

  override down(): void {
    this.addSql(`drop trigger "conversations_messages_sent" on "messages";`);
    this.addSql(`drop function "conversations_messages_sent"();`);
    this.addSql(`drop trigger "conversations_counted_delete" on "conversations";`);
    this.addSql(`drop trigger "conversations_counted_insert" on "conversations";`);
    this.addSql(`drop function "conversations_counted_deleted"();`);
    this.addSql(`drop function "conversations_counted_inserted"();`);
    this.addSql(`create trigger "conversations_state_insert_delete" after insert or delete on "conversations"
      for each row execute function "conversations_state_counted"();`);
    this.addSql(`create trigger "conversations_count_insert_delete" after insert or delete on "conversations"
      for each row execute function "conversations_count_changed"();`);
    this.addSql(`drop trigger "conversations_messages_insert" on "messages";`);
    this.addSql(`drop function "conversations_messages_inserted"();`);
    this.addSql(`create function "conversations_message_inserted"() returns trigger language plpgsql as $$
      begin
        insert into conversations as c (channel_id, contact_id, last_message_id, last_activity_at, last_inbound_at,
                                         unread_count)
        values (new.channel_id, new.contact_id, new.id, new.created_at,
                case when new.direction = 'inbound' then new.created_at end,
                case when new.direction = 'inbound' and new.status <> 'read' then 1 else 0 end)
        on conflict (channel_id, contact_id) do update set
          last_message_id = case when c.last_message_id is null
                                   or (excluded.last_activity_at, excluded.last_message_id)
                                      > (c.last_activity_at, c.last_message_id)
                                 then excluded.last_message_id else c.last_message_id end,
          last_activity_at = greatest(c.last_activity_at, excluded.last_activity_at),
          last_inbound_at = greatest(c.last_inbound_at, excluded.last_inbound_at),
          unread_count = c.unread_count + excluded.unread_count,
          updated_at = now();
        return null;
      end $$;`);
    this.addSql(`create trigger "conversations_message_insert" after insert on "messages" for each row
      when (new.contact_id is not null) execute function "conversations_message_inserted"();`);
  }
}
