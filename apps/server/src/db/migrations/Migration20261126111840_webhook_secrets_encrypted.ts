import { Migration } from '@mikro-orm/migrations';
import type { SecretBox } from '../../kit/secrets.js';

interface PlainRow {
  id: string;
  secret: string;
  previous_secret: string | null;
}
interface SealedRow {
  id: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
}

/**
 * The box's name as db/secrets-key.ts registers it (SECRETS_EXTENSION): written out, since the migrator loads
 * migration files on their own, without the modules around them.
 */
const SECRETS_EXTENSION = 'switchboard:secrets';
/** What a sealed webhook secret is bound to, as modules/webhooks/webhook-secret-box.ts seals it. */
const contextOf = (endpointId: string) => `webhook-endpoint:${endpointId}`;

/**
 * Webhook signing secrets at rest are sealed with SECRETS_KEY (AES-256-GCM, kit/secrets.ts), like WhatsApp channel
 * secrets: existing rows are encrypted here, in the migration's transaction. With endpoints to encrypt and no key
 * (SECRETS_KEY unset with DATABASE_URL) the migration stops and changes nothing; the embedded database has a key.
 */
export class WebhookSecretsEncrypted extends Migration {
  override name = 'Migration20261126111840_webhook_secrets_encrypted';

  private box(rows: number, verb: string): SecretBox {
    const box = this.config.getExtension<SecretBox | undefined>(SECRETS_EXTENSION);
    if (!box)
      throw new Error(
        `SECRETS_KEY is not set, but ${rows} webhook endpoint(s) have signing secrets to ${verb}: ` +
          'set SECRETS_KEY and migrate again.',
      );
    return box;
  }

  override async up(): Promise<void> {
    await this.execute(
      `alter table "webhook_endpoints" add "secret_ciphertext" text null, add "previous_secret_ciphertext" text null;`,
    );
    const rows = (await this.execute(
      `select "id", "secret", "previous_secret" from "webhook_endpoints";`,
    )) as unknown as PlainRow[];
    const box = rows.length ? this.box(rows.length, 'encrypt') : undefined;
    for (const row of rows) {
      const seal = (secret: string | null) => secret && box!.encrypt(secret, contextOf(row.id));
      await this.execute(
        `update "webhook_endpoints" set "secret_ciphertext" = ?, "previous_secret_ciphertext" = ? where "id" = ?;`,
        [seal(row.secret), seal(row.previous_secret), row.id],
      );
    }
    await this.execute(
      `alter table "webhook_endpoints" alter column "secret_ciphertext" set not null,
         drop column "secret", drop column "previous_secret";`,
    );
  }

  override async down(): Promise<void> {
    await this.execute(
      `alter table "webhook_endpoints" add "secret" varchar(200) null, add "previous_secret" varchar(200) null;`,
    );
    const rows = (await this.execute(
      `select "id", "secret_ciphertext", "previous_secret_ciphertext" from "webhook_endpoints";`,
    )) as unknown as SealedRow[];
    const box = rows.length ? this.box(rows.length, 'decrypt') : undefined;
    for (const row of rows) {
      const open = (sealed: string | null) => sealed && box!.decrypt(sealed, contextOf(row.id));
      await this.execute(`update "webhook_endpoints" set "secret" = ?, "previous_secret" = ? where "id" = ?;`, [
        open(row.secret_ciphertext),
        open(row.previous_secret_ciphertext),
        row.id,
      ]);
    }
    await this.execute(
      `alter table "webhook_endpoints" alter column "secret" set not null,
         drop column "secret_ciphertext", drop column "previous_secret_ciphertext";`,
    );
  }
}
