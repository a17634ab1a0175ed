import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32. `broadcasts`: a template sent to an audience of a channel, its name unique in the channel, its
 * recipients' counts kept on the row. `broadcast_recipients`: one row per (broadcast, phone), so an audience reaches
 * each phone once; the contact is kept as a reference that a deleted contact clears.
 */
export class Broadcasts extends Migration {
  override name = 'Migration20261128130000_broadcasts';

  override up(): void {
    this.addSql(`create table "broadcasts" (
      "id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, "name" varchar(120) not null,
      "template_name" varchar(200) not null, "language" varchar(20) not null, "variables" jsonb not null,
      "audience" jsonb not null, "status" text not null, "scheduled_at" timestamptz null,
      "rate_per_second" int not null, "recipients" int not null default 0, "queued" int not null default 0,
      "sent" int not null default 0, "delivered" int not null default 0, "read" int not null default 0,
      "failed" int not null default 0, "skipped" int not null default 0,
      "created_at" timestamptz not null default now(), "started_at" timestamptz null,
      "completed_at" timestamptz null, "completed_event_at" timestamptz null,
      "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "broadcasts" add constraint "broadcasts_channel_id_name_unique"
      unique ("channel_id", "name");`);
    this.addSql(`create index "broadcasts_channel_recent_index"
      on "broadcasts" ("channel_id", "created_at" desc, "id" desc);`);
    this.addSql(`create index "broadcasts_due_index" on "broadcasts" ("scheduled_at") where "status" = 'scheduled';`);
    this.addSql(`create index "broadcasts_unannounced_index" on "broadcasts" ("completed_at")
      where "status" = 'completed' and "completed_event_at" is null;`);
    this.addSql(`alter table "broadcasts" add constraint "broadcasts_channel_id_foreign"
      foreign key ("channel_id") references "channels" ("id") on delete cascade;`);
    this.addSql(`alter table "broadcasts" add constraint "broadcasts_status_check"
      check ("status" in ('scheduled', 'sending', 'completed', 'cancelled'));`);

    this.addSql(`create table "broadcast_recipients" (
      "broadcast_id" uuid not null, "phone" varchar(20) not null, "contact_id" uuid null, "status" text not null,
      "msgid" varchar(200) null, "reason" varchar(500) null, "updated_at" timestamptz not null default now(),
      primary key ("broadcast_id", "phone"));`);
    this.addSql(`create index "broadcast_recipients_status_index"
      on "broadcast_recipients" ("broadcast_id", "status", "phone");`);
    this.addSql(`create index "broadcast_recipients_contact_id_index" on "broadcast_recipients" ("contact_id");`);
    this.addSql(`alter table "broadcast_recipients" add constraint "broadcast_recipients_broadcast_id_foreign"
      foreign key ("broadcast_id") references "broadcasts" ("id") on delete cascade;`);
    this.addSql(`alter table "broadcast_recipients" add constraint "broadcast_recipients_contact_id_foreign"
      foreign key ("contact_id") references "contacts" ("id") on delete set null;`);
    this.addSql(`alter table "broadcast_recipients" add constraint "broadcast_recipients_status_check"
      check ("status" in ('queued', 'sent', 'delivered', 'read', 'failed', 'skipped'));`);
  }

  override down(): void {
    this.addSql(`drop table if exists "broadcast_recipients" cascade;`);
    this.addSql(`drop table if exists "broadcasts" cascade;`);
  }
}
