import { Migration } from '@mikro-orm/migrations';

/**
 * Meta's inbound webhooks stored for their job (whatsapp_inbound_deliveries); inbound messages and failure reasons on
 * messages.
 */
export class WhatsAppInbound extends Migration {
  override name = 'Migration20261123163418_whatsapp_inbound';

  override up(): void {
    this.addSql(
      `create table "whatsapp_inbound_deliveries" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid ` +
        `not null, "body_sha256" varchar(64) not null, "body" bytea not null, "status" text not null default ` +
        `'pending', "attempts" int not null default 0, "last_error" text null, "applied_at" timestamptz null, ` +
        `"created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary ` +
        `key ` +
        `("id"));`,
    );
    this.addSql(
      `alter table "whatsapp_inbound_deliveries" add constraint ` +
        `"whatsapp_inbound_deliveries_channel_id_body_sha256_unique" unique ("channel_id", "body_sha256");`,
    );
    this.addSql(
      `alter table "whatsapp_inbound_deliveries" add constraint "whatsapp_inbound_deliveries_channel_id_foreign" ` +
        `foreign key ("channel_id") references "channels" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "whatsapp_inbound_deliveries" add constraint "whatsapp_inbound_deliveries_status_check" check ` +
        `("status" in ('pending', 'applied', 'failed'));`,
    );

    this.addSql(`alter table "messages" drop constraint "messages_type_check";`);
    this.addSql(
      `alter table "messages" add "from" varchar(20) null, add "contact_id" uuid null, add "body" text null, add ` +
        `"error_code" int null, add "error_title" varchar(500) null;`,
    );
    this.addSql(
      `alter table "messages" add constraint "messages_contact_id_foreign" foreign key ("contact_id") references ` +
        `"contacts" ("id") on delete set null;`,
    );
    this.addSql(`alter table "messages" alter column "to" drop not null;`);
    this.addSql(`create index "messages_contact_id_index" on "messages" ("contact_id");`);
    this.addSql(
      `alter table "messages" add constraint "messages_type_check" check ("type" in ('text', 'template', 'image', ` +
        `'document', 'audio', 'video', 'location', 'interactive', 'sticker', 'contacts', 'button', 'reaction', ` +
        `'order', 'system', 'unsupported'));`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "whatsapp_inbound_deliveries" cascade;`);
    // Inbound messages and the new types do not fit the old columns: rolling back drops them.
    this.addSql(
      `delete from "messages" where "to" is null or "type" not in ('text', 'template', 'image', 'document', 'audio', ` +
        `'video', 'location', 'interactive');`,
    );
    this.addSql(`drop index "messages_contact_id_index";`);
    this.addSql(`alter table "messages" drop constraint "messages_contact_id_foreign";`);
    this.addSql(`alter table "messages" drop constraint "messages_type_check";`);
    this.addSql(
      `alter table "messages" drop column "from", drop column "contact_id", drop column "body", drop column ` +
        `"error_code", drop column "error_title";`,
    );
    this.addSql(`alter table "messages" alter column "to" set not null;`);
    this.addSql(
      `alter table "messages" add constraint "messages_type_check" check ("type" in ('text', 'template', 'image', ` +
        `'document', 'audio', 'video', 'location', 'interactive'));`,
    );
  }
}
