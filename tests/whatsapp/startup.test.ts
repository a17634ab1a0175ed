import { randomBytes } from 'node:crypto';
import { createLogger, loadConfig, openDatabase, startServer } from '@switchboard/server';
import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { startGraphStandIn } from '../helpers/graph-stand-in.js';
import { startTestServer } from '../helpers/server.js';
import { META_TEMPLATES, SECRETS_KEY, whatsAppAccount, whatsAppTenantSeed } from './whatsapp-fixtures.js';

const account = whatsAppAccount();
const graph = await startGraphStandIn({
  accessTokens: [account.accessToken],
  phoneNumbers: [account],
  templates: { [account.wabaId]: META_TEMPLATES() },
});
afterAll(() => graph.close());

/** Starts the service as main.ts does and stops it again; the start-up error, if any. */
async function startUp(databaseUrl: string, env: Record<string, string>): Promise<Error | undefined> {
  const logger = createLogger('silent');
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    TEMPLATE_SYNC_MINUTES: '0',
    ...env,
    PORT: '0',
    DATABASE_URL: databaseUrl,
  });
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    // An unusable SECRETS_KEY is refused as the database opens (migrations may need it).
    database = await openDatabase(config, logger, 4);
    const running = await startServer(config, database, logger);
    await running.close();
    return undefined;
  } catch (error) {
    return error as Error;
  } finally {
    await database?.close();
  }
}

describe('start-up with WhatsApp Cloud API channels', () => {
  it('needs no SECRETS_KEY while no channel uses WhatsApp (the sandbox demo)', async () => {
    expect(await startUp(await createFreshDatabase(), { MIGRATE_ON_START: 'true' })).toBeUndefined();
  });

  it('stops with a clear error when a WhatsApp channel exists and SECRETS_KEY is missing/wrong/malformed', async () => {
    const server = await startTestServer({ SECRETS_KEY, WHATSAPP_GRAPH_URL: graph.url, TEMPLATE_SYNC_MINUTES: '0' });
    await server.seed(whatsAppTenantSeed(account));
    await server.close();
    const url = server.databaseUrl;

    expect((await startUp(url, {}))?.message).toBe(
      'SECRETS_KEY is not set, but WhatsApp Cloud API channels exist whose secrets it encrypts: set the SECRETS_KEY ' +
        'they were connected with.',
    );
    expect((await startUp(url, { SECRETS_KEY: randomBytes(32).toString('base64') }))?.message).toMatch(
      new RegExp(
        '^SECRETS_KEY cannot open the stored WhatsApp channel secrets: ' +
          String.raw`Stored secret was encrypted with another key \(id [\w-]+; the configured key is [\w-]+\)\.$`,
      ),
    );
    expect((await startUp(url, { SECRETS_KEY: 'c2hvcnQ=' }))?.message).toBe(
      'SECRETS_KEY decodes to 5 bytes; it must be exactly 32 (openssl rand -base64 32).',
    );
    expect(await startUp(url, { SECRETS_KEY })).toBeUndefined();
  });
});
