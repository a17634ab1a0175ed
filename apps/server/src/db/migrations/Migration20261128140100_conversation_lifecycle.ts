import { Migration } from '@mikro-orm/migrations';

/** Stands for "no assignee" in the counts' key (a primary key column cannot be null). */
const NONE = `'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * Conversations get a lifecycle (status, snoozedUntil, assignee, resolvedAt) and notes. chat/conversations/list's
 * filters by status and assignee stay exact and index-backed: the pages are read off per-filter indexes, and the
 * totals come from `conversation_state_counts`, one row per channel, status and assignee kept by a row trigger in
 * the writing transaction, as `channel_conversation_counts` is for the unfiltered list.
 */
export class ConversationLifecycle extends Migration {
  override name = 'Migration20261128140100_conversation_lifecycle';

  override up(): void {
    this.addSql(
      `alter table "conversations" add column "status" text not null default 'open', ` +
        `add column "snoozed_until" timestamptz null, add column "assignee_id" uuid null, ` +
        `add column "resolved_at" timestamptz null;`,
    );
    this.addSql(
      `alter table "conversations" add constraint "conversations_status_check" check ("status" in ('open', ` +
        `'pending', 'resolved', 'snoozed'));`,
    );
    this.addSql(
      `alter table "conversations" add constraint "conversations_assignee_id_foreign" foreign key ("assignee_id") ` +
        `references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `create index "conversations_channel_status_index" on "conversations" ("channel_id", "status", ` +
        `"last_activity_at" desc, "contact_id" desc);`,
    );
    this.addSql(
      `create index "conversations_channel_assignee_index" on "conversations" ("channel_id", "assignee_id", ` +
        `"last_activity_at" desc, "contact_id" desc);`,
    );
    this.addSql(
      `create index "conversations_snoozed_index" on "conversations" ("snoozed_until") where status = 'snoozed';`,
    );
    this.addSql(`create index "conversations_assignee_id_index" on "conversations" ("assignee_id");`);

    this.addSql(
      `create table "conversation_state_counts" ("channel_id" uuid not null, "status" text not null, ` +
        `"assignee_key" uuid not null, "total" int not null default 0, "unread" int not null default 0, ` +
        `primary key ("channel_id", "status", "assignee_key"));`,
    );
    this.addSql(
      `alter table "conversation_state_counts" add constraint "conversation_state_counts_status_check" check ` +
        `("status" in ('open', 'pending', 'resolved', 'snoozed'));`,
    );
    this.addSql(
      `alter table "conversation_state_counts" add constraint "conversation_state_counts_channel_id_foreign" ` +
        `foreign key ("channel_id") references "channels" ("id") on delete cascade;`,
    );
    // Only existing counters are decremented: when a channel is deleted its counter rows may already be gone.
    this.addSql(`create function "conversations_state_counted"() returns trigger language plpgsql as $$
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
      end $$;`);
    this.addSql(
      `create trigger "conversations_state_insert_delete" after insert or delete on "conversations" for each row
         execute function "conversations_state_counted"();`,
    );
    this.addSql(
      `create trigger "conversations_state_update" after update of "status", "assignee_id", "unread_count"
         on "conversations" for each row
         when (old.status is distinct from new.status or old.assignee_id is distinct from new.assignee_id
               or (old.unread_count > 0) is distinct from (new.unread_count > 0))
         execute function "conversations_state_counted"();`,
    );
    this.addSql(
      `insert into "conversation_state_counts" ("channel_id", "status", "assignee_key", "total", "unread")
       select "channel_id", "status", coalesce("assignee_id", ${NONE}), count(*),
              count(*) filter (where "unread_count" > 0)
         from "conversations" group by 1, 2, 3;`,
    );

    this.addSql(
      `create table "notes" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, ` +
        `"contact_id" uuid not null, "author_id" uuid null, "author_name" varchar(200) not null, ` +
        `"text" text not null, ` +
        `"created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(`create index "notes_contact_recent_index" on "notes" ("contact_id", "created_at" desc, "id" desc);`);
    this.addSql(`create index "notes_channel_id_index" on "notes" ("channel_id");`);
    this.addSql(`create index "notes_author_id_index" on "notes" ("author_id");`);
    this.addSql(
      `alter table "notes" add constraint "notes_channel_id_foreign" foreign key ("channel_id") references ` +
        `"channels" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "notes" add constraint "notes_contact_id_foreign" foreign key ("contact_id") references ` +
        `"contacts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "notes" add constraint "notes_author_id_foreign" foreign key ("author_id") references ` +
        `"users" ("id") on delete set null;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "notes" cascade;`);
    this.addSql(`drop trigger if exists "conversations_state_update" on "conversations";`);
    this.addSql(`drop trigger if exists "conversations_state_insert_delete" on "conversations";`);
    this.addSql(`drop function if exists "conversations_state_counted"();`);
    this.addSql(`drop table if exists "conversation_state_counts" cascade;`);
    this.addSql(`drop index if exists "conversations_assignee_id_index";`);
    this.addSql(`drop index if exists "conversations_snoozed_index";`);
    this.addSql(`drop index if exists "conversations_channel_assignee_index";`);
    this.addSql(`drop index if exists "conversations_channel_status_index";`);
    this.addSql(`alter table "conversations" drop constraint if exists "conversations_assignee_id_foreign";`);
    this.addSql(`alter table "conversations" drop constraint if exists "conversations_status_check";`);
    this.addSql(
      `alter table "conversations" drop column "status", drop column "snoozed_until", drop column "assignee_id", ` +
        `drop column "resolved_at";`,
    );
  }
}
