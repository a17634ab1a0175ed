import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectEnvelopeError } from '../helpers/expect.js';
import { expectDeclaredHeaders } from '../export/declared-headers.js';
import { test } from '../helpers/test.js';

test.override('serverEnv', { DB_STATEMENT_TIMEOUT_MS: '3000', DB_ACQUIRE_TIMEOUT_MS: '500' });

/** The bounds on one request's database work (DB_STATEMENT_TIMEOUT_MS, DB_ACQUIRE_TIMEOUT_MS) hold. */
describe('database limits', () => {
  test('every pooled connection runs with the configured statement_timeout, and one over it is cancelled', async ({
    server,
  }) => {
    const [setting] = await server.database.orm.em
      .fork()
      .execute<{ statement_timeout: string }[]>('show statement_timeout');
    expect(setting!.statement_timeout).toBe('3s');
    await expect(server.database.orm.em.fork().execute('select pg_sleep(6)')).rejects.toMatchObject({ code: '57014' });
  });

  test('a request that cannot get a connection in time is 503 with Retry-After, not a hang or a 500', async ({
    server,
    acme,
  }) => {
    // The test server's pool has 10 connections: hold all of them (under the statement timeout) until the request is
    // done.
    const holders = Array.from({ length: 10 }, () => server.database.orm.em.fork().execute('select pg_sleep(2.5)'));
    const sleeping = async () =>
      (
        await sql(
          server.databaseUrl,
          `select count(*)::int as n from pg_stat_activity where query = 'select pg_sleep(2.5)' and state = 'active'`,
        )
      )[0]!.n;
    await expect.poll(sleeping, { timeout: 5000, interval: 20 }).toBe(10);
    const started = Date.now();
    const reply = await server.http.post(
      '/api/workspace/v1/channels/list',
      {},
      { headers: { 'X-API-Key': acme.ownerKey } },
    );
    const waited = Date.now() - started;
    await Promise.all(holders);
    expectEnvelopeError(reply, 503, 'service_unavailable');
    expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
    expectDeclaredHeaders('POST', '/api/workspace/v1/channels/list', reply);
    // The 503 itself shows the acquire timeout fired (the holders keep their connections for 2.5 s); this bounds a
    // hang.
    expect(waited).toBeLessThan(5_000);
    const after = await server.http.post(
      '/api/workspace/v1/channels/list',
      {},
      { headers: { 'X-API-Key': acme.ownerKey } },
    );
    expect(after.status).toBe(200);
  });
});
