import { expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { test } from '../helpers/test.js';
import { insertDeliveries, pendingOf, startLoadReceiver, type LoadReceiver } from './webhook-lanes.js';

/**
 * Webhooks that keep up with a broadcast (issue #45), through real HTTP receivers on this machine: throughput that
 * a backlog does not slow, a window per endpoint that follows its speed, retries on time behind a backlog of first
 * attempts. Figures are printed; the floors asserted hold on a busy 2-core machine (docs/benchmarks.md has the
 * figures).
 */
test.override('serverEnv', {
  ALLOW_HTTP_WEBHOOKS: 'true',
  WEBHOOK_TIMEOUT_MS: '1000',
  DELIVERY_RETRY_SCHEDULE: '2',
});

const receivers: LoadReceiver[] = [];
test.afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function endpointFor(server: TestServer, tenant: Tenant, url: string, batch = false): Promise<string> {
  const { data } = await server.client(tenant.ownerKey).platform.webhooks.manage({
    platformId: tenant.platformId,
    url,
    events: ['ticket.closed'],
    batch,
  });
  return data.id;
}

async function receiver(answer?: (n: number) => number | 'hang') {
  const started = await startLoadReceiver(answer);
  receivers.push(started);
  return started;
}

test(
  'delivers a backlog to an endpoint answering in 40 ms at a rate 20,000 waiting retries do not slow',
  {
    timeout: 120_000,
  },
  async ({ server }) => {
    const noisy = await createTenant(server, 'Waiting');
    const quietUrl = (await receiver(() => 40)).url;
    // Another platform's 20,000 deliveries waiting for their retry in an hour: in the same table and index.
    await insertDeliveries(server.databaseUrl, await endpointFor(server, noisy, quietUrl), 20_000, {
      attempts: 1,
      dueInSeconds: 3600,
    });
    const tenant = await createTenant(server, 'Fast');
    const fast = await receiver(() => 40);
    const endpointId = await endpointFor(server, tenant, fast.url);
    const count = 4000;
    const started = Date.now();
    await insertDeliveries(server.databaseUrl, endpointId, count);
    await expect.poll(() => pendingOf(server.databaseUrl, endpointId), { timeout: 60_000, interval: 100 }).toBe(0);
    const perSecond = count / ((Date.now() - started) / 1000);
    console.info(`${count} deliveries in ${Date.now() - started} ms: ${Math.round(perSecond)}/s, ${fast.peak} at once`);
    // Each delivered (a POST slower than the 1 s timeout on a starved machine is retried: counted once here).
    expect(new Set(fast.hits.map((hit) => hit.headers['webhook-id'])).size).toBe(count);
    // The window grew with the endpoint's answers (it starts at 4); the floor holds on a loaded machine.
    expect(fast.peak).toBeGreaterThanOrEqual(16);
    expect(perSecond).toBeGreaterThan(100);
    const [log] = await sql<{ delivered: number; logged: number }>(
      server.databaseUrl,
      `select count(*) filter (where status = 'delivered')::int as delivered,
          count(*) filter (where exists (select 1 from webhook_attempts as a where a.delivery_id = d.id
            and a.attempt = d.attempts and a.status_code = 200))::int as logged
         from webhook_deliveries as d where d.endpoint_id = $1`,
      [endpointId],
    );
    // Every delivery delivered, its last attempt in the log as the 200 it was.
    expect(log).toEqual({ delivered: count, logged: count });
  },
);

test('a retry goes out on time, ahead of a backlog of first attempts', { timeout: 120_000 }, async ({ server }) => {
  const tenant = await createTenant(server, 'Retrying');
  const slow = await receiver(() => 200);
  const endpointId = await endpointFor(server, tenant, slow.url);
  await insertDeliveries(server.databaseUrl, endpointId, 4000);
  await expect.poll(() => slow.hits.length, { timeout: 10_000 }).toBeGreaterThan(0);
  const dueAt = Date.now() + 2000;
  await insertDeliveries(server.databaseUrl, endpointId, 1, { attempts: 1, dueInSeconds: 2, tag: 'retry' });
  const retried = () => slow.hits.find((hit) => hit.body.includes('"tag":"retry"'));
  await expect.poll(retried, { timeout: 30_000, interval: 50 }).toBeDefined();
  const late = retried()!.at - dueAt;
  const waiting = await pendingOf(server.databaseUrl, endpointId);
  console.info(`retry sent ${late} ms after its time, with ${waiting} first attempts still pending`);
  expect(waiting).toBeGreaterThan(1000);
  expect(late).toBeLessThan(5000);
  await server.untilIdle(120_000);
});

test(
  'an endpoint that starts timing out gets fewer deliveries at once, then one',
  { timeout: 180_000 },
  async ({ server }) => {
    const tenant = await createTenant(server, 'Straining');
    let hanging = false;
    const straining = await receiver(() => (hanging ? 'hang' : 40));
    const endpointId = await endpointFor(server, tenant, straining.url);
    await insertDeliveries(server.databaseUrl, endpointId, 3000);
    await expect.poll(() => straining.hits.length, { timeout: 30_000 }).toBeGreaterThan(1500);
    const fastPeak = straining.peak;
    hanging = true;
    const hangFrom = straining.hits.length;
    // Each round of timeouts (1 s) halves the window, 64 at most down to 1: about 126 POSTs over 6 rounds.
    await expect.poll(() => straining.hits.length - hangFrom, { timeout: 60_000, interval: 200 }).toBeGreaterThan(130);
    straining.resetPeak();
    const settled = straining.hits.length;
    await expect.poll(() => straining.hits.length - settled, { timeout: 30_000, interval: 200 }).toBeGreaterThan(5);
    console.info(`window while answering in 40 ms: ${fastPeak} at once; while timing out: ${straining.peak}`);
    expect(fastPeak).toBeGreaterThanOrEqual(16);
    expect(straining.peak).toBeLessThanOrEqual(2);
    await sql(server.databaseUrl, `update webhook_endpoints set is_active = false where id = $1`, [endpointId]);
    await server.untilIdle(60_000);
  },
);
