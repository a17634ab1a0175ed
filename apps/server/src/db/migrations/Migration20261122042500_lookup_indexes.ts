import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes MikroORM's metadata cannot express: trigram GIN for contact search and the descending composite
 * that serves the contacts listing order, plus foreign-key lookups used by every scoped query.
 */
export class LookupIndexes extends Migration {
  override name = 'Migration20261122042500_lookup_indexes';

  override up(): void {
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql(
      'create index "contacts_channel_recent_index" on "contacts" ("channel_id", "created_at" desc, "id" desc);',
    );
    this.addSql('create index "contacts_name_trgm_index" on "contacts" using gin ("name" gin_trgm_ops);');
    this.addSql('create index "contacts_phone_trgm_index" on "contacts" using gin ("phone" gin_trgm_ops);');
    this.addSql('create index "contact_labels_label_id_index" on "contact_labels" ("label_id");');
    this.addSql('create index "channel_users_user_id_index" on "channel_users" ("user_id");');
    this.addSql('create index "channels_platform_id_index" on "channels" ("platform_id");');
    this.addSql('create index "custom_fields_channel_order_index" on "custom_fields" ("channel_id", "display_order");');
    this.addSql('create index "templates_channel_status_index" on "templates" ("channel_id", "status", "name");');
    this.addSql('create index "messages_channel_created_index" on "messages" ("channel_id", "created_at" desc);');
    this.addSql('create index "api_keys_user_id_index" on "api_keys" ("user_id");');
    this.addSql('create index "tickets_owner_id_index" on "tickets" ("owner_id");');
    this.addSql('create index "webhook_endpoints_platform_id_index" on "webhook_endpoints" ("platform_id");');
    this.addSql('create index "webhook_deliveries_endpoint_id_index" on "webhook_deliveries" ("endpoint_id");');
  }

  override down(): void {
    for (const index of [
      'contacts_channel_recent_index',
      'contacts_name_trgm_index',
      'contacts_phone_trgm_index',
      'contact_labels_label_id_index',
      'channel_users_user_id_index',
      'channels_platform_id_index',
      'custom_fields_channel_order_index',
      'templates_channel_status_index',
      'messages_channel_created_index',
      'api_keys_user_id_index',
      'tickets_owner_id_index',
      'webhook_endpoints_platform_id_index',
      'webhook_deliveries_endpoint_id_index',
    ]) {
      this.addSql(`drop index if exists "${index}";`);
    }
  }
}
