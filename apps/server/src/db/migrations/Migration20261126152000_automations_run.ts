import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #25. Automations get their trigger, conditions and actions (jsonb, as the contract's schemas check them),
 * `last_run_at` and a name unique in the channel. `automation_runs` is the run log: one row per (automation,
 * triggering event), which the unique pair guarantees across workers; no foreign key to the automation or the
 * contact, so a run outlives them until the retention task deletes it.
 */
export class AutomationsRun extends Migration {
  override name = 'Migration20261126152000_automations_run';

  override up(): void {
    this.addSql(`create table "automation_runs" (
      "id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, "automation_id" uuid not null,
      "event" text not null, "event_id" varchar(200) not null, "contact_id" uuid not null, "outcome" text not null,
      "steps" jsonb not null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "automation_runs_channel_id_created_at_id_index"
      on "automation_runs" ("channel_id", "created_at", "id");`);
    this.addSql(`create index "automation_runs_automation_id_created_at_id_index"
      on "automation_runs" ("automation_id", "created_at", "id");`);
    this.addSql(`create index "automation_runs_created_at_index" on "automation_runs" ("created_at");`);
    this.addSql(`alter table "automation_runs" add constraint "automation_runs_automation_id_event_id_unique"
      unique ("automation_id", "event_id");`);
    this.addSql(`alter table "automation_runs" add constraint "automation_runs_channel_id_foreign"
      foreign key ("channel_id") references "channels" ("id") on delete cascade;`);
    this.addSql(`alter table "automation_runs" add constraint "automation_runs_event_check"
      check ("event" in ('message.received', 'contact.created', 'contact.labeled'));`);
    this.addSql(`alter table "automation_runs" add constraint "automation_runs_outcome_check"
      check ("outcome" in ('succeeded', 'failed', 'skipped'));`);

    this.addSql(`alter table "automations" add "trigger" jsonb null, add "conditions" jsonb not null default '[]',
      add "actions" jsonb not null default '[]', add "last_run_at" timestamptz null;`);
    this.addSql(`alter table "automations" add constraint "automations_channel_id_name_unique"
      unique ("channel_id", "name");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "automation_runs" cascade;`);
    this.addSql(`alter table "automations" drop constraint "automations_channel_id_name_unique";`);
    this.addSql(`alter table "automations" drop column "trigger", drop column "conditions", drop column "actions",
      drop column "last_run_at";`);
  }
}
