import { Migration } from '@mikro-orm/migrations';

/** WhatsApp Cloud API credentials per channel (modules/whatsapp); the secrets only as ciphertexts. */
export class WhatsAppConnections extends Migration {
  override name = 'Migration20261123161655_whatsapp_connections';

  override up(): void {
    this.addSql(
      `create table "whatsapp_connections" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not ` +
        `null, "phone_number_id" varchar(64) not null, "waba_id" varchar(64) not null, "display_phone_number" ` +
        `varchar(40) not null, "verified_name" varchar(200) not null, "access_token_ciphertext" text not null, ` +
        `"app_secret_ciphertext" text not null, "verify_token_ciphertext" text not null, "created_at" timestamptz ` +
        `not ` +
        `null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `alter table "whatsapp_connections" add constraint "whatsapp_connections_channel_id_unique" unique ` +
        `("channel_id");`,
    );
    this.addSql(
      `alter table "whatsapp_connections" add constraint "whatsapp_connections_channel_id_foreign" foreign key ` +
        `("channel_id") references "channels" ("id") on delete cascade;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "whatsapp_connections" cascade;`);
  }
}
