import { Migration } from '@mikro-orm/migrations';

/**
 * The schedules of the periodic jobs one instance runs for all (retention, the template sync): kept in PostgreSQL,
 * as pg-boss's schedules were, so a restart neither repeats a pass nor puts the next one off.
 */
export class WorkerSchedules extends Migration {
  override name = 'Migration20261208500100_worker_schedules';

  override up(): void {
    this.addSql(`create table "worker_schedules" ("name" varchar(100) not null, "next_pass_at" timestamptz not null,
      primary key ("name"));`);
  }

  override down(): void {
    this.addSql(`drop table if exists "worker_schedules";`);
  }
}
