import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../helpers/database.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startLoad, tally } from './load.js';
import { startRedisServer, type RedisProcess } from './redis-server.js';
import { prepareSpawnedTenant } from './spawned-tenant.js';

const CHANNELS = '/api/workspace/v1/channels/list';

describe('two instances, one Redis', () => {
  let redis: RedisProcess;
  let first: TestServer;
  let second: TestServer;
  let tenant: Tenant;

  beforeAll(async () => {
    redis = await startRedisServer();
    first = await startTestServer({ REDIS_URL: redis.url });
    second = await startTestServer({ REDIS_URL: redis.url, DATABASE_URL: first.databaseUrl });
    tenant = await createTenant(first, 'Shared');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await redis?.kill();
  });

  it('200 parallel reads with one key against the 120 budget: exactly 120 × 200 and 80 × 429', async () => {
    const headers = { 'X-API-Key': tenant.ownerKey };
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? second : first).http.post(CHANNELS, {}, { headers })),
    );
    const counts = tally(replies);
    console.info(`two instances, one key, 200 parallel reads: ${JSON.stringify(counts)}`);
    expect(counts).toEqual({ 200: 120, 429: 80 });
  });
});

/**
 * Redis SIGKILLed under load, with the built server as its own process: it keeps answering, each instance
 * applies its own in-memory budget meanwhile, and the outage is logged once each way.
 */
describe('Redis outage under load', () => {
  let redis: RedisProcess;
  let server: ServerProcess | undefined;
  let keys: string[];

  beforeAll(async () => {
    redis = await startRedisServer();
    const databaseUrl = await createFreshDatabase();
    ({ keys } = await prepareSpawnedTenant(databaseUrl));
    server = spawnServer({ DATABASE_URL: databaseUrl, REDIS_URL: redis.url, PORT: '0', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await redis?.kill();
  });

  it('keeps serving, applies per-instance memory budgets, logs the outage once each way', async () => {
    const [, port] = await server!.waitFor(/Switchboard ready on http:\/\/localhost:(\d+)/);
    const url = `http://127.0.0.1:${port}${CHANNELS}`;
    const [fresh, ...loadKeys] = keys;
    const load = startLoad(url, loadKeys);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await redis.kill();
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // A user who has not spent anything yet gets the memory budget: 120 reads, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++)
      statuses.push((await fetch(url, { method: 'POST', headers: { 'X-API-Key': fresh! } })).status);
    expect(
      statuses.slice(0, 120).every((status) => status === 200),
      JSON.stringify(tally(statuses.map((status) => ({ status })))),
    ).toBe(true);
    expect(statuses.slice(120)).toEqual([429, 429, 429, 429, 429]);

    redis = await startRedisServer(redis.port);
    await server!.waitFor(/redis available again/, 15_000);
    await load.stop();
    console.info(
      `redis outage: load replies ${JSON.stringify(tally(load.hits))}; fresh key ` +
        `${statuses.filter((s) => s === 200).length} × 200 then 429`,
    );
    expect(load.hits.filter((hit) => hit.status !== 200 && hit.status !== 429)).toEqual([]);
    expect(server!.child.exitCode).toBeNull();
    expect(server!.output().match(/redis unavailable/g)).toHaveLength(1);
    expect(server!.output().match(/redis available again/g)).toHaveLength(1);
  }, 60_000);
});
