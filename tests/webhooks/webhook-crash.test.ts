import { existsSync } from 'node:fs';
import path from 'node:path';
import { createLogger, loadConfig, migrate, openDatabase, seed } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { REPO_ROOT, spawnServer, type ServerProcess } from '../helpers/processes.js';
import { sealingServices, TEST_SECRETS_KEY } from '../helpers/secrets-key.js';
import { processBacklog, untilIdle } from '../helpers/worker-idle.js';
import { insertDeliveries, pendingOf, startLoadReceiver, type LoadReceiver } from './webhook-lanes.js';

/**
 * The built server (`node apps/server/dist/main.js`) SIGKILLed in the middle of a backlog, with POSTs in flight and
 * outcomes not yet written: after a restart every delivery is made and recorded once; none is lost.
 */
describe('webhook deliveries survive SIGKILL mid-backlog', () => {
  const COUNT = 600;
  let databaseUrl: string;
  let endpointId: string;
  let receiver: LoadReceiver;
  let running: ServerProcess | undefined;
  const env = (): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    LOG_LEVEL: 'info',
    ALLOW_HTTP_WEBHOOKS: 'true',
    METRICS_PORT: '0',
    SECRETS_KEY: TEST_SECRETS_KEY,
    // The lease of a claim whose instance died: 2 s + 10 s.
    WEBHOOK_TIMEOUT_MS: '2000',
  });

  beforeAll(async () => {
    if (!existsSync(path.join(REPO_ROOT, 'apps/server/dist/main.js')))
      throw new Error('Build the server first: pnpm --filter @switchboard/server build');
    receiver = await startLoadReceiver(() => 50);
    databaseUrl = await createFreshDatabase();
    const file = tenantSeed('Crash');
    file.platforms![0]!.webhooks = [{ url: receiver.url, events: ['ticket.closed'] }];
    const database = await openDatabase(
      loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SECRETS_KEY: TEST_SECRETS_KEY }),
      createLogger('silent'),
      2,
    );
    try {
      await migrate(database.orm);
      await seed(database.orm.em.fork(), file, sealingServices(database.secrets));
    } finally {
      await database.close();
    }
    endpointId = (await sql<{ id: string }>(databaseUrl, 'select id from webhook_endpoints'))[0]!.id;
  });
  afterAll(async () => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    await receiver?.close();
  });

  it('delivers and records every delivery once after the restart', async () => {
    running = spawnServer(env());
    await running.waitFor(/Switchboard ready/);
    await insertDeliveries(databaseUrl, endpointId, COUNT);
    await expect.poll(() => receiver.hits.length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(COUNT / 4);
    running.child.kill('SIGKILL');
    await running.exited;
    const beforeCrash = receiver.hits.length;

    running = spawnServer(env());
    await running.waitFor(/Switchboard ready/);
    // What the dead instance had claimed comes due again when its lease ends (WEBHOOK_TIMEOUT_MS + 10 s).
    await expect.poll(() => pendingOf(databaseUrl, endpointId), { timeout: 90_000, interval: 200 }).toBe(0);
    expect(await untilIdle(processBacklog(running))).toEqual({ due: 0, later: 0 });
    const [rows] = await sql<{ delivered: number; attempts: number }>(
      databaseUrl,
      `select count(*) filter (where status = 'delivered')::int as delivered, sum(attempts)::int as attempts
         from webhook_deliveries where endpoint_id = $1`,
      [endpointId],
    );
    // Each delivery recorded delivered after exactly one recorded attempt; POSTs cut by the crash were made again.
    expect(rows).toEqual({ delivered: COUNT, attempts: COUNT });
    const ids = new Set(receiver.hits.map((hit) => hit.headers['webhook-id']));
    expect(ids.size).toBe(COUNT);
    console.info(
      `${beforeCrash} POSTs before the SIGKILL; ${receiver.hits.length - COUNT} deliveries POSTed twice ` +
        '(at least once)',
    );
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  }, 180_000);
});
