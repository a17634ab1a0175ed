import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #44: a broadcast's sends are queued a chunk at a time once it starts, so its first message goes out while the
 * rest are queued; the broadcast keeps where its queueing stands.
 */
export class BroadcastQueueCursor extends Migration {
  override name = 'Migration20261208500000_broadcast_queue_cursor';

  override up(): void {
    this.addSql(`alter table "broadcasts" add column "unqueued" int not null default 0,
      add column "queue_cursor" varchar(20) null, add column "next_due_at" timestamptz null;`);
  }

  override down(): void {
    this.addSql(`alter table "broadcasts" drop column "unqueued", drop column "queue_cursor",
      drop column "next_due_at";`);
  }
}
