import { Migration } from '@mikro-orm/migrations';

/** The outbox's statuses: a message in one of them has not been sent yet. */
const UNSENT = `('queued', 'scheduled', 'sending')`;

/**
 * The upsert of the conversations of `rows` (messages), as Migration20261201120000_conversation_statement_triggers
 * had it: the newest message wins by the listing order (created_at, then id); in key order.
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

/**
 * A message joins its conversation (the inbox's order, `lastMessage`) when it is sent, not while it waits in the
 * send pipeline's outbox: a message scheduled for next week, or cancelled, is not the conversation's news, and a
 * broadcast's start no longer writes 100,000 conversations in its transaction (they follow its sends, a batch at
 * a time). The history (chat/messages/list) shows outbox messages as before, with their status. Inserted messages
 * count at once unless they are unsent; an update that takes messages out of the outbox (sent, accepted, failed;
 * not cancelled) counts them then, once per statement.
 */
export class ConversationsFollowSends extends Migration {
  override name = 'Migration20261201130000_conversations_follow_sends';

  override up(): void {
    this.addSql(`create or replace function "conversations_messages_inserted"() returns trigger language plpgsql as $$
      begin
        ${UPSERT(`(select * from new_rows where contact_id is not null and status not in ${UNSENT})`)}
        return null;
      end $$;`);
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
  }

  override down(): void {
    this.addSql(`drop trigger "conversations_messages_sent" on "messages";`);
    this.addSql(`drop function "conversations_messages_sent"();`);
    this.addSql(`create or replace function "conversations_messages_inserted"() returns trigger language plpgsql as $$
      begin
        ${UPSERT(`(select * from new_rows where contact_id is not null)`)}
        return null;
      end $$;`);
  }
}
