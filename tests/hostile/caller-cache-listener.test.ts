import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheHits, untilListening } from '../foundation/cache-metrics.js';
import { sql } from '../helpers/database.js';
import { expectEnvelopeError } from '../helpers/expect.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CHANNELS = '/api/workspace/v1/channels/list';

/**
 * The caller cache trusts an entry only while its LISTEN connection is up: a change committed while that
 * connection is down sends its notice to nobody, so losing the connection must stop the cache serving at once
 * and reconnecting must start it empty.
 */
describe('caller cache when its change listener loses the database', { timeout: 60_000 }, () => {
  let server: TestServer;
  const keys: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0' });
    const tag = randomBytes(4).toString('hex');
    const users = ['a', 'b'].map((ref) => ({
      ref,
      platform: 'p',
      email: `${ref}-${tag}@example.com`,
      name: `Listener ${ref}`,
      apiKey: true,
    }));
    const ids = await server.seed({
      platforms: [{ ref: 'p', name: 'Listener Co', domain: `listener-${tag}.example.com` }],
      users,
    });
    keys.push(ids.users!.a!.apiKey!, ids.users!.b!.apiKey!);
    await untilListening(server);
  });
  afterAll(() => server?.close());

  const ask = (apiKey: string) => server.http.post(CHANNELS, {}, { headers: { 'X-API-Key': apiKey } });

  it('stops serving from the cache once the listener is cut, and starts again empty when it is back', async () => {
    const [key, other] = keys as [string, string];
    await ask(key);
    const before = await cacheHits(server);
    expect((await ask(key)).status).toBe(200);
    expect(await cacheHits(server), 'the key is answered from the cache').toBe(before + 1);

    // A revocation nobody hears (its trigger disabled inside the revoking transaction): the cache keeps the key,
    // which shows that only notices evict, and what a missed notice would cost.
    await sql(
      server.databaseUrl,
      `begin;
       alter table api_keys disable trigger api_keys_callers_changed;
       update api_keys set revoked_at = now() where prefix = '${key.slice(0, 16)}';
       alter table api_keys enable trigger api_keys_callers_changed;
       commit;`,
    );
    expect((await ask(key)).status, 'unheard change: still served from the cache').toBe(200);

    // Cut the listener's connection (PostgreSQL 14+ waits up to 5 s for the backend to exit).
    const [cut] = await sql(
      server.databaseUrl,
      `select count(*)::int as cut from (select pg_terminate_backend(pid, 5000) from pg_stat_activity
        where application_name = 'switchboard caller cache' and datname = current_database()) t`,
    );
    expect(cut!.cut).toBe(1);
    // Whether the server has noticed yet or not, the next request must not be answered from the cache.
    expectEnvelopeError(await ask(key), 401, 'unauthorized');

    await untilListening(server);
    expectEnvelopeError(await ask(key), 401, 'unauthorized');
    await ask(other);
    const again = await cacheHits(server);
    expect((await ask(other)).status).toBe(200);
    expect(await cacheHits(server), 'the cache serves again after reconnecting').toBe(again + 1);
  });
});
