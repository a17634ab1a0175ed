import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32, the send pipeline. A message can now be recorded before its provider call (`scheduled`, `queued`,
 * then `sending` committed before the call) and end without one (`cancelled`); `msgid` stays the id the API gave
 * it, and `provider_message_id` holds the provider's id, which status reports name (old outbound rows: their msgid).
 * `send_paces` holds each channel's send budget for every instance, `send_dispatchers` the heartbeats that tell a
 * live dispatcher's `sending` rows from a dead one's.
 */
export class SendPipeline extends Migration {
  override name = 'Migration20261128120000_send_pipeline';

  override up(): void {
    this.addSql(`alter table "messages" add "provider_message_id" varchar(200) null, add "broadcast_id" uuid null,
      add "due_at" timestamptz null, add "reason" varchar(40) null, add "sending_by" uuid null;`);
    this.addSql(`update "messages" set "provider_message_id" = "msgid" where "direction" = 'outbound';`);
    this.addSql(`create unique index "messages_provider_message_id_unique" on "messages" ("provider_message_id")
      where "provider_message_id" is not null;`);
    this.addSql(`create index "messages_outbox_index" on "messages" ("channel_id", "due_at")
      where "status" in ('queued', 'scheduled', 'sending');`);
    this.addSql(`create index "messages_broadcast_index" on "messages" ("broadcast_id", "status")
      where "broadcast_id" is not null;`);
    this.addSql(`alter table "messages" drop constraint "messages_status_check";`);
    this.addSql(`alter table "messages" add constraint "messages_status_check" check ("status" in ('scheduled',
      'queued', 'sending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'cancelled'));`);
    this.addSql(`create table "send_paces" ("key" varchar(80) not null, "next_at" timestamptz not null,
      primary key ("key"));`);
    this.addSql(`create table "send_dispatchers" ("id" uuid not null, "seen_at" timestamptz not null,
      primary key ("id"));`);
  }

  override down(): void {
    this.addSql(`drop table if exists "send_dispatchers" cascade;`);
    this.addSql(`drop table if exists "send_paces" cascade;`);
    // Messages that never reached a provider have no place in the old schema.
    this.addSql(`delete from "messages" where "status" in ('scheduled', 'queued', 'sending', 'cancelled');`);
    this.addSql(`alter table "messages" drop constraint "messages_status_check";`);
    this.addSql(`alter table "messages" add constraint "messages_status_check" check ("status" in ('accepted',
      'sent', 'delivered', 'read', 'failed'));`);
    this.addSql(`drop index "messages_broadcast_index";`);
    this.addSql(`drop index "messages_outbox_index";`);
    this.addSql(`drop index "messages_provider_message_id_unique";`);
    this.addSql(`alter table "messages" drop column "provider_message_id", drop column "broadcast_id",
      drop column "due_at", drop column "reason", drop column "sending_by";`);
  }
}
