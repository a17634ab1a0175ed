import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, loadConfig, openDatabase } from '@switchboard/server';
import { describe, expect } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { spawnServer } from '../helpers/processes.js';
import { openWebhookSecret } from '../helpers/secrets-key.js';
import { startTestServer } from '../helpers/server.js';
import { test } from '../helpers/test.js';

/**
 * Issue #22 item 6: webhook signing secrets are sealed at rest with SECRETS_KEY like WhatsApp's, existing ones by a
 * migration; a kept Idempotency-Key reply (which carries the secret of a create) is sealed too; start-up refuses
 * a missing or wrong key once sealed secrets exist; the default embedded run needs no SECRETS_KEY.
 */
const HOOK = 'https://hooks.example.com/at-rest';
const LAST_BEFORE = 'Migration20261124100000_contact_search_keys';

describe('secrets at rest', () => {
  test('a webhook secret is stored sealed, and so is the kept reply of a keyed create, which still replays it', async ({
    server,
    acme,
  }) => {
    const create = () =>
      server.http.post(
        '/api/platform/v1/webhooks/manage',
        { platformId: acme.platformId, url: HOOK, events: 'ticket.closed' },
        { headers: { 'X-API-Key': acme.ownerKey, 'Idempotency-Key': 'at-rest-1' } },
      );
    const first = await create();
    expect(first.status).toBe(200);
    const { id, secret } = first.data.data as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);

    const [endpoint] = await sql(server.databaseUrl, 'select * from webhook_endpoints where id = $1', [id]);
    expect(JSON.stringify(endpoint)).not.toContain(secret.slice('whsec_'.length));
    expect(openWebhookSecret(id, endpoint!.secret_ciphertext as string)).toBe(secret);

    const kept = await sql(server.databaseUrl, `select * from idempotency_keys where key = 'at-rest-1'`);
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept)).not.toContain(secret.slice('whsec_'.length));

    const retried = await create();
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.data).toEqual(first.data);
  });

  test('start-up refuses a missing or different SECRETS_KEY once sealed webhook secrets exist', async ({
    server,
    acme,
  }) => {
    await server
      .client(acme.ownerKey)
      .platform.webhooks.manage({ platformId: acme.platformId, url: `${HOOK}?sealed`, events: ['ticket.closed'] });
    const again = (SECRETS_KEY: string) => startTestServer({ DATABASE_URL: server.databaseUrl, SECRETS_KEY });
    await expect(again('')).rejects.toThrow(
      'SECRETS_KEY is not set, but webhook endpoints exist whose signing secrets it encrypts: ' +
        'set the SECRETS_KEY they were stored with.',
    );
    await expect(again(randomBytes(32).toString('base64'))).rejects.toThrow(
      /^SECRETS_KEY cannot open the stored webhook signing secrets: Stored secret was encrypted with another key/,
    );
  });

  test('the migration seals existing plain-text secrets, and stops without a key, changing nothing', async () => {
    const logger = createLogger('silent');
    const plain = `whsec_${randomBytes(24).toString('base64')}`;
    const previous = `whsec_${randomBytes(24).toString('base64')}`;
    const databaseUrl = await createFreshDatabase();
    const endpointId = randomUUID();
    const open = async (SECRETS_KEY: string) =>
      openDatabase(loadConfig({ DATABASE_URL: databaseUrl, SECRETS_KEY, LOG_LEVEL: 'silent' }), logger, 2);

    const withoutKey = await open('');
    try {
      await withoutKey.orm.migrator.up({ to: LAST_BEFORE });
      await sql(databaseUrl, `insert into platforms (id, name, domain) values ($1, 'Old', 'old.example.com')`, [
        endpointId,
      ]);
      await sql(
        databaseUrl,
        `insert into webhook_endpoints (id, platform_id, url, secret, previous_secret, previous_secret_expires_at)
         values ($1, $1, $2, $3, $4, now() + interval '1 hour')`,
        [endpointId, HOOK, plain, previous],
      );
      await expect(withoutKey.orm.migrator.up()).rejects.toThrow(
        'SECRETS_KEY is not set, but 1 webhook endpoint(s) have signing secrets to encrypt: ' +
          'set SECRETS_KEY and migrate again.',
      );
      const [untouched] = await sql(databaseUrl, 'select secret from webhook_endpoints');
      expect(untouched).toEqual({ secret: plain });
    } finally {
      await withoutKey.close();
    }

    const key = randomBytes(32).toString('base64');
    const withKey = await open(key);
    try {
      await withKey.orm.migrator.up();
      const [row] = await sql(databaseUrl, 'select * from webhook_endpoints');
      expect(JSON.stringify(row)).not.toMatch(/whsec_/);
      const sealed = withKey.secrets!;
      expect(sealed.decrypt(row!.secret_ciphertext as string, `webhook-endpoint:${endpointId}`)).toBe(plain);
      expect(sealed.decrypt(row!.previous_secret_ciphertext as string, `webhook-endpoint:${endpointId}`)).toBe(
        previous,
      );
    } finally {
      await withKey.close();
    }
  });

  test(
    'the default embedded run (no DATABASE_URL, no SECRETS_KEY) generates its key once and takes webhooks',
    {
      timeout: 240_000,
    },
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-secrets-'));
      const env = {
        DATABASE_URL: '',
        SECRETS_KEY: '',
        SWITCHBOARD_DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        PORT: '0',
      };
      const running = spawnServer(env);
      try {
        const [, apiKey] = await running.waitFor(/^\s+(sb_live_\S+)$/m, 200_000);
        const [, port] = await running.waitFor(/"port":(\d+)[^\n]*Switchboard listening/);
        const keyFile = path.join(dataDir, 'secrets.key');
        expect(statSync(keyFile).mode & 0o777).toBe(0o600);
        const headers = { 'X-API-Key': apiKey!, 'Content-Type': 'application/json' };
        const platform = (await (
          await fetch(`http://127.0.0.1:${port}/api/platform/v1/id/list`, { method: 'POST', headers, body: '{}' })
        ).json()) as { data: { id: string } };
        const reply = await fetch(`http://127.0.0.1:${port}/api/platform/v1/webhooks/manage`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ platformId: platform.data.id, url: HOOK, events: ['ticket.closed'] }),
        });
        expect(reply.status, await reply.clone().text()).toBe(200);
        expect(((await reply.json()) as { data: { secret: string } }).data.secret).toMatch(/^whsec_/);
      } finally {
        running.child.kill('SIGTERM');
        await running.exited;
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
