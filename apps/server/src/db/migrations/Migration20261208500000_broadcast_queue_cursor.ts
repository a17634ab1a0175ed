import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #44: a broadcast's audience is resolved and its sends queued a chunk at a time, so its first message goes out
 * while the rest are resolved and queued; the broadcast keeps where that stands.
 */
export class BroadcastQueueCursor extends Migration {
  override name = 'Migration20261208500000_broadcast_queue_cursor';

  override up(): void {
    this.addSql(`alter table "broadcasts" add column "resolving" boolean not null default false,
      add column "queue_cursor" varchar(20) null, add column "next_due_at" timestamptz null;`);
  }

  override down(): void {
    this.addSql(`alter table "broadcasts" drop column "resolving", drop column "queue_cursor",
      drop column "next_due_at";`);
  }
}
