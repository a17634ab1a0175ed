import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../helpers/database.js';
import { createTenant } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertDeliveries, pendingOf, startLoadReceiver, type LoadReceiver } from './webhook-lanes.js';

/**
 * Several instances share the deliveries (SKIP LOCKED claims, each delivery once); an instance without the worker
 * (JOB_WORKER=false) delivers nothing but counts what waits.
 */
const ENV = { ALLOW_HTTP_WEBHOOKS: 'true', WEBHOOK_CONCURRENCY: '4' };
const COUNT = 400;

describe('webhook deliveries across instances', () => {
  const servers: TestServer[] = [];
  let receiver: LoadReceiver;
  let endpointId: string;

  beforeAll(async () => {
    // Slow enough that each instance's two slots for the platform stay busy.
    receiver = await startLoadReceiver(() => 100);
    servers.push(await startTestServer({ ...ENV, JOB_WORKER: 'false' }));
    const tenant = await createTenant(servers[0]!, 'Shared');
    const { data } = await servers[0]!.client(tenant.ownerKey).platform.webhooks.manage({
      platformId: tenant.platformId,
      url: receiver.url,
      events: ['ticket.closed'],
    });
    endpointId = data.id;
  });
  afterAll(async () => {
    for (const server of servers.reverse()) await server.close();
    await receiver?.close();
  });

  it('an instance without the worker delivers nothing, and counts what waits as due', async () => {
    await insertDeliveries(servers[0]!.databaseUrl, endpointId, COUNT);
    expect(await servers[0]!.untilIdle(1500).catch((error: Error) => error.message)).toMatch(
      new RegExp(`not idle after 1500 ms: \\{"due":${COUNT},"later":0\\}`),
    );
    expect(receiver.hits).toHaveLength(0);
  });

  it('two instances with the worker share them: each delivered once, more at once than one instance may', async () => {
    const { databaseUrl } = servers[0]!;
    servers.push(await startTestServer({ ...ENV, DATABASE_URL: databaseUrl }));
    servers.push(await startTestServer({ ...ENV, DATABASE_URL: databaseUrl }));
    await expect.poll(() => pendingOf(databaseUrl, endpointId), { timeout: 60_000, interval: 100 }).toBe(0);
    expect(receiver.hits).toHaveLength(COUNT);
    expect(new Set(receiver.hits.map((hit) => hit.headers['webhook-id'])).size).toBe(COUNT);
    // One instance lets a platform have 2 POSTs at once (half its 4 slots): more means both instances delivered.
    expect(receiver.peak).toBeGreaterThan(2);
    expect(receiver.peak).toBeLessThanOrEqual(4);
    const [attempts] = await sql<{ count: number }>(
      databaseUrl,
      `select count(*)::int as count from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        where d.endpoint_id = $1`,
      [endpointId],
    );
    expect(attempts!.count).toBe(COUNT);
    expect(await servers[0]!.untilIdle()).toEqual({ due: 0, later: 0 });
  });
});
