import { randomBytes } from 'node:crypto';
import { createApiKey } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortalAgent } from '../portal/portal-helpers.js';
import { sql } from '../helpers/database.js';
import { expectEnvelopeError } from '../helpers/expect.js';
import { runCli } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cacheHits, untilListening } from './cache-metrics.js';

const CHANNELS = '/api/workspace/v1/channels/list';
const PLATFORM = '/api/platform/v1/id/list';
const PASSWORD = 'correct horse battery';

/**
 * Every instance caches resolved API keys; a change committed anywhere (another instance, the CLI, plain SQL)
 * must be seen by the very next request on every instance. Each test first shows the other instance serving the
 * key from its cache (its hit count rises), then changes something and asks that instance once, with no waiting.
 */
describe('API-key caller cache, two instances on one database', { timeout: 120_000 }, () => {
  let first: TestServer;
  let second: TestServer;
  let platformId: string;
  let channelIds: { main: string; other: string };

  /** A user of its own per test (rate budgets are per user), with a key, a portal password and the main channel. */
  async function newUser(extra: { platformAccess?: boolean; permissions?: string[] } = {}) {
    const tag = randomBytes(4).toString('hex');
    const email = `cache-${tag}@example.com`;
    const ids = await first.seed({
      users: [
        {
          ref: 'u',
          platform: platformId,
          email,
          name: `Cache ${tag}`,
          permissions: ['settings:api'],
          password: PASSWORD,
          apiKey: true,
          ...extra,
        },
      ],
    });
    const { id, apiKey } = ids.users!.u!;
    await sql(first.databaseUrl, 'insert into channel_users (channel_id, user_id) values ($1, $2)', [
      channelIds.main,
      id,
    ]);
    return { id, email, apiKey: apiKey! };
  }

  const ask = (server: TestServer, apiKey: string, path = CHANNELS) =>
    server.http.post(path, {}, { headers: { 'X-API-Key': apiKey } });

  /** The key has been looked up once on `server` and is now answered from its cache. */
  async function cachedOn(server: TestServer, apiKey: string, path = CHANNELS) {
    // The first request hears every change committed before it (the test's own channel_users insert included), so
    // by the second the key is cached, whichever way that notice raced the first lookup.
    await ask(server, apiKey, path);
    await ask(server, apiKey, path);
    const before = await cacheHits(server);
    const reply = await ask(server, apiKey, path);
    expect(await cacheHits(server), 'the request after the key was cached was a cache hit').toBe(before + 1);
    return reply;
  }

  beforeAll(async () => {
    first = await startTestServer({ METRICS_PORT: '0' });
    second = await startTestServer({ DATABASE_URL: first.databaseUrl, METRICS_PORT: '0' });
    const ids = await first.seed({
      platforms: [{ ref: 'p', name: 'Cache Co', domain: `cache-${randomBytes(4).toString('hex')}.example.com` }],
      channels: [
        { ref: 'main', platform: 'p', name: 'Cache Main', phone: '15550003333' },
        { ref: 'other', platform: 'p', name: 'Cache Other', phone: '15550004444' },
      ],
    });
    platformId = ids.platforms!.p!;
    channelIds = { main: ids.channels!.main!, other: ids.channels!.other! };
    // One seed file creates both in the same millisecond; channels list oldest first, so make `other` the newer.
    await sql(first.databaseUrl, `update channels set created_at = created_at + interval '1 second' where id = $1`, [
      channelIds.other,
    ]);
    await untilListening(first);
    await untilListening(second);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('refuses a key revoked in the Developer Portal of one instance on the next request to the other', async () => {
    const user = await newUser();
    await cachedOn(second, user.apiKey);
    const portal = new PortalAgent(first.baseUrl);
    expect((await portal.signIn(user.email, PASSWORD)).status).toBe(303);
    const prefix = user.apiKey.slice(0, 16);
    const confirm = await portal.get(`/developer/keys/${prefix}/revoke`);
    expect(
      (await portal.post(`/developer/keys/${prefix}/revoke`, { _csrf: PortalAgent.csrf(confirm.text) })).status,
    ).toBe(303);

    expectEnvelopeError(await ask(second, user.apiKey), 401, 'unauthorized');
    expectEnvelopeError(await ask(first, user.apiKey), 401, 'unauthorized');
  });

  it(
    'refuses a key revoked with `pnpm cli key revoke` on the next request to either instance',
    { timeout: 240_000 },
    async () => {
      const user = await newUser();
      await cachedOn(first, user.apiKey);
      await cachedOn(second, user.apiKey);
      const revoked = await runCli(['key', 'revoke', '--prefix', user.apiKey.slice(0, 16)], {
        DATABASE_URL: first.databaseUrl,
      });
      expect(revoked.code, revoked.stderr).toBe(0);

      expectEnvelopeError(await ask(second, user.apiKey), 401, 'unauthorized');
      expectEnvelopeError(await ask(first, user.apiKey), 401, 'unauthorized');
    },
  );

  it('refuses each of 20 keys on the request right after its revocation commits, with no wait in between', async () => {
    const user = await newUser();
    const em = first.database.orm.em.fork();
    const keys = await Promise.all(Array.from({ length: 20 }, (_, i) => createApiKey({ em }, user.id, `key ${i}`)));
    for (const key of keys) {
      await cachedOn(second, key.apiKey);
      await sql(first.databaseUrl, 'update api_keys set revoked_at = now() where id = $1', [key.id]);
      expect((await ask(second, key.apiKey)).status, key.prefix).toBe(401);
    }
    // The user's other key was evicted with them (notices are per user) and is simply looked up again.
    expect((await ask(second, user.apiKey)).status).toBe(200);
  });

  it('applies permission and platform-access changes on the next request', async () => {
    const user = await newUser({ platformAccess: true });
    expectEnvelopeError(await cachedOn(second, user.apiKey, PLATFORM), 403, 'forbidden');

    await sql(
      first.databaseUrl,
      `update users set permissions = array['settings:api', 'platform:view'] where id = $1`,
      [user.id],
    );
    expect((await ask(second, user.apiKey, PLATFORM)).status).toBe(200);

    await sql(first.databaseUrl, 'update users set platform_access = false where id = $1', [user.id]);
    const refused = await ask(second, user.apiKey, PLATFORM);
    expectEnvelopeError(refused, 403, 'forbidden');
    expect(refused.data.message).toMatch(/platform-level access/);
  });

  it('applies channel membership changes on the next request', async () => {
    const user = await newUser();
    const channels = async () =>
      ((await ask(second, user.apiKey)).data.data as { id: string }[]).map((channel) => channel.id);
    expect((await cachedOn(second, user.apiKey)).data.data.map((channel: { id: string }) => channel.id)).toEqual([
      channelIds.main,
    ]);

    await sql(first.databaseUrl, 'insert into channel_users (channel_id, user_id) values ($1, $2)', [
      channelIds.other,
      user.id,
    ]);
    expect(await channels()).toEqual([channelIds.main, channelIds.other]);

    await sql(first.databaseUrl, 'delete from channel_users where user_id = $1', [user.id]);
    expect(await channels()).toEqual([]);
  });

  it('refuses the keys of a deleted user on the next request', async () => {
    const user = await newUser();
    await cachedOn(second, user.apiKey);
    await sql(first.databaseUrl, 'delete from users where id = $1', [user.id]);
    expectEnvelopeError(await ask(second, user.apiKey), 401, 'unauthorized');
  });

  it('does not evict anything when a key’s last use is recorded', async () => {
    const user = await newUser();
    await cachedOn(second, user.apiKey);
    await sql(first.databaseUrl, `update api_keys set last_used_at = now() - interval '1 hour' where prefix = $1`, [
      user.apiKey.slice(0, 16),
    ]);
    const before = await cacheHits(second);
    expect((await ask(second, user.apiKey)).status).toBe(200);
    expect(await cacheHits(second)).toBe(before + 1);
  });
});
