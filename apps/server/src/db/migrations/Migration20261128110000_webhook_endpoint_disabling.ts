import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoints that fail every attempt are disabled by the server: since when every attempt has failed (null
 * after a success), and when the server disabled the endpoint (null unless it did).
 */
export class WebhookEndpointDisabling extends Migration {
  override name = 'Migration20261128110000_webhook_endpoint_disabling';

  override up(): void {
    this.addSql(
      `alter table "webhook_endpoints" add "failing_since" timestamptz null, add "disabled_at" timestamptz null;`,
    );
  }

  override down(): void {
    this.addSql(`alter table "webhook_endpoints" drop column "failing_since", drop column "disabled_at";`);
  }
}
