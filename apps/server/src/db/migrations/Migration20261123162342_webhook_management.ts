import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoints managed through the API (webhooks/manage): a description, the secret a rotation replaced and
 * until when it still signs, and an update time. The delivery log is read per endpoint, newest first.
 */
export class WebhookManagement extends Migration {
  override name = 'Migration20261123162342_webhook_management';

  override up(): void {
    this.addSql(
      `alter table "webhook_endpoints" add "description" text null, add "previous_secret" varchar(200) null, add ` +
        `"previous_secret_expires_at" timestamptz null, add "updated_at" timestamptz not null default now();`,
    );
    this.addSql(`drop index "webhook_deliveries_endpoint_id_index";`);
    this.addSql(
      `create index "webhook_deliveries_endpoint_id_created_at_id_index" on "webhook_deliveries" ("endpoint_id", ` +
        `"created_at", "id");`,
    );
  }

  override down(): void {
    this.addSql(`drop index "webhook_deliveries_endpoint_id_created_at_id_index";`);
    this.addSql(`create index "webhook_deliveries_endpoint_id_index" on "webhook_deliveries" ("endpoint_id");`);
    this.addSql(
      `alter table "webhook_endpoints" drop column "description", drop column "previous_secret", drop column ` +
        `"previous_secret_expires_at", drop column "updated_at";`,
    );
  }
}
