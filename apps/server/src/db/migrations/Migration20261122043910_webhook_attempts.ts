import { Migration } from '@mikro-orm/migrations';

/** The per-attempt webhook log: one row per POST, beside the per-delivery summary in webhook_deliveries. */
export class WebhookAttempts extends Migration {
  override name = 'Migration20261122043910_webhook_attempts';

  override up(): void {
    this.addSql(
      `create table "webhook_attempts" ("id" uuid not null default gen_random_uuid(), "delivery_id" uuid not null, ` +
        `"attempt" int not null, "status_code" int null, "error" text null, "duration_ms" int not null, "created_at" ` +
        `timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `alter table "webhook_attempts" add constraint "webhook_attempts_delivery_id_attempt_unique" unique ` +
        `("delivery_id", "attempt");`,
    );
    this.addSql(
      `alter table "webhook_attempts" add constraint "webhook_attempts_delivery_id_foreign" foreign key ` +
        `("delivery_id") references "webhook_deliveries" ("id") on delete cascade;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "webhook_attempts" cascade;`);
  }
}
