import { Migration } from '@mikro-orm/migrations';

/** Issue #41: a channel may keep its Meta app's ID, on which a template media header's sample is uploaded. */
export class WhatsAppAppId extends Migration {
  override name = 'Migration20261207110000_whatsapp_app_id';

  override up(): void {
    this.addSql(`alter table "whatsapp_connections" add column "app_id" varchar(64) null;`);
  }

  override down(): void {
    this.addSql(`alter table "whatsapp_connections" drop column "app_id";`);
  }
}
