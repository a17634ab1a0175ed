import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #39: a provider's status report for a message whose provider id is not committed yet is parked, not dropped,
 * and applied when that id is recorded.
 */
export class ParkedStatusReports extends Migration {
  override name = 'Migration20261208100000_parked_status_reports';

  override up(): void {
    this.addSql(`create table "message_status_reports_parked" ("id" uuid not null, "provider" text not null,
      "provider_message_id" text not null, "channel_id" uuid null, "status" text not null, "error_code" int null,
      "error_title" text null, "event_at" timestamptz null, "parked_at" timestamptz not null,
      constraint "message_status_reports_parked_pkey" primary key ("id"));`);
    this.addSql(`create index "message_status_reports_parked_provider_id_index"
      on "message_status_reports_parked" ("provider", "provider_message_id");`);
    this.addSql(`create index "message_status_reports_parked_parked_at_index"
      on "message_status_reports_parked" ("parked_at");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "message_status_reports_parked" cascade;`);
  }
}
