import { Migration } from '@mikro-orm/migrations';

/** Stored replies of idempotent writes (http/idempotency.ts): one row per API user and Idempotency-Key. */
export class IdempotencyKeys extends Migration {
  override name = 'Migration20261123133223_idempotency_keys';

  override up(): void {
    this.addSql(
      `create table "idempotency_keys" ("user_id" uuid not null, "key" varchar(255) not null, "fingerprint" ` +
        `varchar(64) not null, "status_code" int null, "response_body" jsonb null, "created_at" timestamptz not null ` +
        `default now(), "expires_at" timestamptz not null, primary key ("user_id", "key"));`,
    );
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_user_id_foreign" foreign key ("user_id") ` +
        `references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "idempotency_keys";`);
  }
}
