import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #41: a broadcast pauses (its template paused or disabled by Meta, or on request) and resumes; a send Meta
 * throttled goes back to the queue, its attempts counted so that a number throttled for good ends them.
 */
export class BroadcastPause extends Migration {
  override name = 'Migration20261207100000_broadcast_pause';

  override up(): void {
    this.addSql(`alter table "broadcasts" drop constraint "broadcasts_status_check";`);
    this.addSql(`alter table "broadcasts" add constraint "broadcasts_status_check"
      check ("status" in ('scheduled', 'preparing', 'sending', 'paused', 'completed', 'cancelled'));`);
    this.addSql(`alter table "broadcasts" add column "paused_reason" text null;`);
    this.addSql(`alter table "broadcasts" add constraint "broadcasts_paused_reason_check"
      check ("paused_reason" in ('template_paused', 'by_request'));`);
    this.addSql(`alter table "messages" add column "attempts" int not null default 0;`);
  }

  override down(): void {
    this.addSql(`alter table "messages" drop column "attempts";`);
    // A paused broadcast has no status to go back to: it ends cancelled, its held sends with it.
    this.addSql(`update "messages" set "status" = 'cancelled', "reason" = 'cancelled'
      where "status" = 'queued' and "due_at" is null and "broadcast_id" is not null;`);
    this.addSql(`update "broadcasts" set "status" = 'cancelled', "completed_at" = now(), "completed_event_at" = now()
      where "status" = 'paused';`);
    this.addSql(`alter table "broadcasts" drop constraint "broadcasts_paused_reason_check";`);
    this.addSql(`alter table "broadcasts" drop column "paused_reason";`);
    this.addSql(`alter table "broadcasts" drop constraint "broadcasts_status_check";`);
    this.addSql(`alter table "broadcasts" add constraint "broadcasts_status_check"
      check ("status" in ('scheduled', 'preparing', 'sending', 'completed', 'cancelled'));`);
  }
}
