import { Migration } from '@mikro-orm/migrations';

/** The send pipeline's statuses: a message in one of them has not been sent yet. */
const UNSENT = `('queued', 'scheduled', 'sending')`;

/**
 * A broadcast's recipients and counts follow its messages (Migration20261128130100_broadcast_recipients_follow):
 * `changed` is the statement's messages of broadcasts whose recipient moves, with the status and reason it moves to.
 */
const FOLLOW = (changed: string) => `create or replace function broadcast_recipients_follow() returns trigger
      language plpgsql as $$
      begin
        with changed as (${changed}),
        moved as (
          update broadcast_recipients r
             set status = c.status, reason = c.reason, updated_at = now(),
                 msgid = case when c.status in ('queued', 'skipped') then r.msgid else c.msgid end
            from changed c, broadcast_recipients was
           where r.broadcast_id = c.broadcast_id and r.phone = c.phone
             and was.broadcast_id = r.broadcast_id and was.phone = r.phone and r.status <> c.status
          returning r.broadcast_id, was.status as was, r.status)
        insert into broadcast_count_deltas as d
               (broadcast_id, shard, queued, sent, delivered, read, failed, skipped)
        select broadcast_id, pg_backend_pid() % 16,
               count(*) filter (where status = 'queued') - count(*) filter (where was = 'queued'),
               count(*) filter (where status = 'sent') - count(*) filter (where was = 'sent'),
               count(*) filter (where status = 'delivered') - count(*) filter (where was = 'delivered'),
               count(*) filter (where status = 'read') - count(*) filter (where was = 'read'),
               count(*) filter (where status = 'failed') - count(*) filter (where was = 'failed'),
               count(*) filter (where status = 'skipped') - count(*) filter (where was = 'skipped')
          from moved group by broadcast_id
        on conflict (broadcast_id, shard) do update
           set queued = d.queued + excluded.queued, sent = d.sent + excluded.sent,
               delivered = d.delivered + excluded.delivered, read = d.read + excluded.read,
               failed = d.failed + excluded.failed, skipped = d.skipped + excluded.skipped;
        return null;
      end $$;`;

/** A failed message's reason for its recipient: the pipeline's, or the provider's code and text. */
const FAILED_REASON = `coalesce(n.reason, nullif(concat_ws(' ', n.error_code::text, n.error_title), ''))`;

/**
 * The messages that left the outbox: a recipient leaves `queued` only with its message's outcome, so the outbox's own
 * moves (queued, scheduled, sending) are skipped without comparing old and new rows; a cancelled one takes its
 * message's reason.
 */
const CHANGED_BY_OUTCOME = `
          select n.broadcast_id, n."to" as phone, n.msgid,
                 case when n.status in ('accepted', 'sent') then 'sent'
                      when n.status = 'cancelled' then 'skipped'
                      else n.status end as status,
                 case when n.status = 'cancelled' then coalesce(n.reason, 'cancelled')
                      when n.status = 'failed' then ${FAILED_REASON} end as reason
            from new_rows n
           where n.broadcast_id is not null and n.status not in ${UNSENT}`;

/** As Migration20261128130100_broadcast_recipients_follow wrote it: for the way down. */
const CHANGED_BY_JOIN = `
          select n.broadcast_id, n."to" as phone, n.msgid,
                 case when n.status in ${UNSENT} then 'queued'
                      when n.status in ('accepted', 'sent') then 'sent'
                      when n.status = 'cancelled' then 'skipped'
                      else n.status end as status,
                 case when n.status = 'cancelled' then 'cancelled'
                      when n.status = 'failed' then ${FAILED_REASON} end as reason
            from new_rows n join old_rows o on o.id = n.id
           where n.broadcast_id is not null and n.status is distinct from o.status`;

/** The conversations of messages that left the outbox (see Migration20261201120000_conversation_statement_triggers). */
const SENT = (sentRows: string) => `create or replace function "conversations_messages_sent"() returns trigger
      language plpgsql as $$
      begin
        insert into conversations as c (channel_id, contact_id, last_message_id, last_activity_at, last_inbound_at,
                                         unread_count)
        select distinct on (m.channel_id, m.contact_id) m.channel_id, m.contact_id, m.id, m.created_at,
               max(m.created_at) filter (where m.direction = 'inbound') over conversation,
               (count(*) filter (where m.direction = 'inbound' and m.status <> 'read') over conversation)::int
          from ${sentRows} m
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
          updated_at = now();
        return null;
      end $$;`;

/**
 * The messages that left the outbox in this statement, sent (not cancelled): their old and new rows paired by a
 * GROUP BY, which PostgreSQL runs by hashing or sorting, never by comparing every row with every other.
 */
const SENT_BY_GROUPING = `(select x.id, x.channel_id, x.contact_id, x.created_at, x.direction,
                  max(x.status) filter (where x.is_new) as status
             from (select id, channel_id, contact_id, created_at, direction, status, true as is_new from new_rows
                    where contact_id is not null and status not in ${UNSENT} and status <> 'cancelled'
                   union all
                   select id, channel_id, contact_id, created_at, direction, status, false from old_rows
                    where contact_id is not null and status in ${UNSENT}) x
            group by x.id, x.channel_id, x.contact_id, x.created_at, x.direction
           having bool_or(x.is_new) and bool_or(not x.is_new))`;

/** As Migration20261201120000_conversation_statement_triggers wrote it: for the way down. */
const SENT_BY_JOIN = `(select n.* from new_rows n join old_rows o on o.id = n.id
                    where n.contact_id is not null and o.status in ${UNSENT}
                      and n.status not in ${UNSENT} and n.status <> 'cancelled')`;

/**
 * Issue #38. Triggers whose plans cannot go quadratic: PL/pgSQL plans a trigger's statements once per connection, so
 * after an update of a few rows (or none) the statement triggers on `messages` kept a plan made for tiny transition
 * tables, and joined `new_rows` to `old_rows` by comparing every row with every other (a 10,000-message update took
 * 128 s instead of 1.7 s after a 0-row one). The recipients' trigger no longer needs `old_rows` at all (a recipient
 * leaves `queued` only with its message's outcome, so the outbox's own moves are skipped); the conversations'
 * trigger pairs old and new rows by a GROUP BY. Each statement now joins a transition table only to indexed tables.
 *
 * Also: `preparing` broadcasts (their audience resolved in the background); `needs_consent` on messages (a MARKETING
 * template or a broadcast's send, checked again at its hand-over); an index of the sends a dispatcher holds (its
 * reservations and calls, found without reading the outbox when it dies or stops); a cancelled send's recipient
 * takes its message's reason; and a recipient skipped for its contact's status says so as templates/send does
 * (`contact_unsubscribed`, `contact_blocked`).
 */
export class OutboundStopAndConsent extends Migration {
  override name = 'Migration20261206100000_outbound_stop_and_consent';

  override up(): void {
    this.addSql(`alter table "broadcasts" drop constraint "broadcasts_status_check";`);
    this.addSql(`alter table "broadcasts" add constraint "broadcasts_status_check"
      check ("status" in ('scheduled', 'preparing', 'sending', 'completed', 'cancelled'));`);
    this.addSql(`alter table "messages" add "needs_consent" boolean not null default false;`);
    this.addSql(`create index "messages_held_index" on "messages" ("sending_by") where "sending_by" is not null;`);
    this.addSql(FOLLOW(CHANGED_BY_OUTCOME));
    this.addSql(SENT(SENT_BY_GROUPING));
    this.addSql(`update "broadcast_recipients" set "reason" = 'contact_' || "reason"
      where "status" = 'skipped' and "reason" in ('unsubscribed', 'blocked');`);
  }

  override down(): void {
    this.addSql(`update "broadcast_recipients" set "reason" = substr("reason", 9)
      where "status" = 'skipped' and "reason" in ('contact_unsubscribed', 'contact_blocked');`);
    this.addSql(SENT(SENT_BY_JOIN));
    this.addSql(FOLLOW(CHANGED_BY_JOIN));
    this.addSql(`drop index "messages_held_index";`);
    this.addSql(`alter table "messages" drop column "needs_consent";`);
    this.addSql(`update "broadcasts" set "status" = 'scheduled', "scheduled_at" = now() where "status" = 'preparing';`);
    this.addSql(`alter table "broadcasts" drop constraint "broadcasts_status_check";`);
    this.addSql(`alter table "broadcasts" add constraint "broadcasts_status_check"
      check ("status" in ('scheduled', 'sending', 'completed', 'cancelled'));`);
  }
}
