import { Migration } from '@mikro-orm/migrations';

/**
 * The workspace's events as the live stream (GET events/stream) replays them: one row per event, written in the
 * transaction that records the event. Its `cursor` (the SSE `id`) is given at commit by a deferred trigger that
 * first takes a transaction-level advisory lock: cursors are then handed out in commit order, and every smaller
 * cursor is visible once a larger one is, so a reader that asks for `cursor > last` never skips an event committed
 * late. Holding the lock from the trigger to the end of the commit orders only the commits of transactions that
 * carry an event, and the trigger takes no other lock, so it cannot deadlock. The trigger then notifies
 * `workspace_events` (delivered at commit, to every instance).
 */
export class WorkspaceEvents extends Migration {
  override name = 'Migration20261128140000_workspace_events';

  override up(): void {
    this.addSql(`create sequence "workspace_events_cursor_seq";`);
    this.addSql(
      `create table "workspace_events" ("id" uuid not null default gen_random_uuid(), "cursor" bigint null, ` +
        `"platform_id" uuid not null, "channel_id" uuid null, "type" varchar(100) not null, ` +
        `"payload" jsonb not null, "created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(`alter table "workspace_events" add constraint "workspace_events_cursor_unique" unique ("cursor");`);
    this.addSql(`create index "workspace_events_created_at_index" on "workspace_events" ("created_at");`);
    this.addSql(
      `alter table "workspace_events" add constraint "workspace_events_platform_id_foreign" foreign key ` +
        `("platform_id") references "platforms" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "workspace_events" add constraint "workspace_events_channel_id_foreign" foreign key ` +
        `("channel_id") references "channels" ("id") on delete cascade;`,
    );
    this.addSql(`create function "workspace_events_number"() returns trigger language plpgsql as $$
      declare
        next_cursor bigint;
      begin
        perform pg_advisory_xact_lock(hashtext('workspace_events_cursor'));
        next_cursor := nextval('workspace_events_cursor_seq');
        update workspace_events set cursor = next_cursor where id = new.id;
        perform pg_notify('workspace_events', next_cursor::text);
        return null;
      end $$;`);
    this.addSql(
      `create constraint trigger "workspace_events_number" after insert on "workspace_events" ` +
        `deferrable initially deferred for each row execute function "workspace_events_number"();`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists "workspace_events_number" on "workspace_events";`);
    this.addSql(`drop function if exists "workspace_events_number"();`);
    this.addSql(`drop table if exists "workspace_events" cascade;`);
    this.addSql(`drop sequence if exists "workspace_events_cursor_seq";`);
  }
}
