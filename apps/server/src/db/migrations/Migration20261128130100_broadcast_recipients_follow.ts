import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32. A broadcast's recipients and counts follow its messages: a statement-level trigger on `messages` moves
 * each recipient of a changed broadcast message to the status its message maps to (queued, scheduled, sending:
 * `queued`; accepted, sent: `sent`; delivered; read; failed with the pipeline's reason or the provider's code and
 * text; cancelled: `skipped`, reason `cancelled`) and adds the steps to the broadcast's counts, in the transaction
 * that changed the messages (the dispatcher's batch, a provider's status report). The steps go to
 * `broadcast_count_deltas`, in the shard of the connection (its backend's pid), so concurrent reports of one
 * broadcast do not all wait for one row's lock. Statement-level with transition tables: one pass per batch.
 */
export class BroadcastRecipientsFollow extends Migration {
  override name = 'Migration20261128130100_broadcast_recipients_follow';

  override up(): void {
    this.addSql(`create table "broadcast_count_deltas" (
      "broadcast_id" uuid not null, "shard" smallint not null, "queued" int not null default 0,
      "sent" int not null default 0, "delivered" int not null default 0, "read" int not null default 0,
      "failed" int not null default 0, "skipped" int not null default 0, primary key ("broadcast_id", "shard"));`);
    this.addSql(`alter table "broadcast_count_deltas" add constraint "broadcast_count_deltas_broadcast_id_foreign"
      foreign key ("broadcast_id") references "broadcasts" ("id") on delete cascade;`);
    this.addSql(`create function broadcast_recipients_follow() returns trigger language plpgsql as $$
      begin
        with changed as (
          select n.broadcast_id, n."to" as phone, n.msgid,
                 case when n.status in ('queued', 'scheduled', 'sending') then 'queued'
                      when n.status in ('accepted', 'sent') then 'sent'
                      when n.status = 'cancelled' then 'skipped'
                      else n.status end as status,
                 case when n.status = 'cancelled' then 'cancelled'
                      when n.status = 'failed' then coalesce(n.reason,
                        nullif(concat_ws(' ', n.error_code::text, n.error_title), '')) end as reason
            from new_rows n join old_rows o on o.id = n.id
           where n.broadcast_id is not null and n.status is distinct from o.status),
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
      end $$;`);
    this.addSql(`create trigger "messages_broadcast_recipients_follow" after update on "messages"
      referencing old table as old_rows new table as new_rows
      for each statement execute function broadcast_recipients_follow();`);
  }

  override down(): void {
    this.addSql(`drop trigger if exists "messages_broadcast_recipients_follow" on "messages";`);
    this.addSql(`drop function if exists broadcast_recipients_follow();`);
    this.addSql(`drop table if exists "broadcast_count_deltas" cascade;`);
  }
}
