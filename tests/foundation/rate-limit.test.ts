import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createApiKey } from '@switchboard/server';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { expectEnvelopeError, expectError } from '../helpers/expect.js';
import { redisAvailable, REDIS_URL } from '../helpers/redis.js';
import { skipWithout } from '../helpers/optional-services.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { test } from '../helpers/test.js';

const CHANNELS = '/api/workspace/v1/channels/list';

async function spend(server: TestServer, apiKey: string, count: number) {
  const replies = await Promise.all(
    Array.from({ length: count }, () => server.http.post(CHANNELS, {}, { headers: { 'X-API-Key': apiKey } })),
  );
  return replies.map((r) => r.status);
}

/** A second key for the same user: all of a user's keys share one budget. */
async function secondKeyOf(server: TestServer, tenant: Tenant): Promise<string> {
  return (await createApiKey({ em: server.database.orm.em.fork() }, tenant.memberId, 'second')).apiKey;
}

describe('rate limits (in-memory store)', () => {
  test('announces the budget on every reply', async ({ server, acme }) => {
    const reply = await server.http.post(CHANNELS, {}, { headers: { 'X-API-Key': acme.ownerKey } });
    expect(reply.headers['ratelimit-limit']).toBe('120');
    expect(reply.headers['ratelimit-remaining']).toBe('119');
    expect(Number(reply.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(reply.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    expect(reply.headers['ratelimit-policy']).toBe('120;w=60');
  });

  test('gives 429 with Retry-After past 120 reads a minute, shared by all keys of a user, not by other users', async ({
    server,
    acme,
  }) => {
    const secondKey = await secondKeyOf(server, acme);
    const first = await spend(server, acme.memberKey, 60);
    const second = await spend(server, secondKey, 60);
    expect([...first, ...second].every((s) => s === 200)).toBe(true);

    const over = await server.http.post(CHANNELS, {}, { headers: { 'X-API-Key': acme.memberKey } });
    expectEnvelopeError(over, 429, 'rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['ratelimit-remaining']).toBe('0');
    await expectError(server.client(secondKey).workspace.channels.list(), 429, 'rate_limited');

    // Another user of the same platform keeps a full budget.
    const other = await server.client(acme.auditorKey).workspace.channels.list();
    expect(other.success).toBe(true);
  });

  test('counts failed requests too, but not unauthenticated ones against anybody', async ({ server }) => {
    const fresh = await createTenant(server, 'Fresh');
    await spend(server, 'sb_live_' + 'x'.repeat(43), 5);
    const reply = await server.http.post(CHANNELS, {}, { headers: { 'X-API-Key': fresh.ownerKey } });
    expect(reply.headers['ratelimit-remaining']).toBe('119');
  });
});

const withoutRedis = skipWithout('redis', await redisAvailable(), `Redis not reachable at ${REDIS_URL}`);

describe.skipIf(withoutRedis)('rate limits shared across instances through Redis', () => {
  let first: TestServer;
  let second: TestServer;
  let tenant: Tenant;

  beforeAll(async () => {
    first = await startTestServer({ REDIS_URL });
    second = await startTestServer({ REDIS_URL, DATABASE_URL: first.databaseUrl });
    tenant = await createTenant(first, 'Shared');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  test('two server instances spend one budget per user', async () => {
    const a = await spend(first, tenant.ownerKey, 70);
    const b = await spend(second, tenant.ownerKey, 50);
    expect([...a, ...b].filter((s) => s === 200)).toHaveLength(120);
    const overOnFirst = await first.http.post(CHANNELS, {}, { headers: { 'X-API-Key': tenant.ownerKey } });
    const overOnSecond = await second.http.post(CHANNELS, {}, { headers: { 'X-API-Key': tenant.ownerKey } });
    expectEnvelopeError(overOnFirst, 429, 'rate_limited');
    expectEnvelopeError(overOnSecond, 429, 'rate_limited');
  });
});
