import { describe, expect } from 'vitest';
import { expectEnvelopeError } from '../helpers/expect.js';
import { test } from '../helpers/test.js';

test.override('serverEnv', { DB_STATEMENT_TIMEOUT_MS: '1500', DB_ACQUIRE_TIMEOUT_MS: '500' });

/** The bounds on one request's database work (DB_STATEMENT_TIMEOUT_MS, DB_ACQUIRE_TIMEOUT_MS) hold. */
describe('database limits', () => {
  test('every pooled connection runs with the configured statement_timeout, and a statement over it is cancelled', async ({ server }) => {
    const [setting] = await server.database.orm.em.fork().execute<{ statement_timeout: string }[]>('show statement_timeout');
    expect(setting!.statement_timeout).toBe('1500ms');
    await expect(server.database.orm.em.fork().execute('select pg_sleep(3)')).rejects.toMatchObject({ code: '57014' });
  });

  test('a request that cannot get a connection in time is 503 with Retry-After, not a hang or a 500', async ({ server, acme }) => {
    // The test server's pool has 10 connections: hold all of them for a second.
    const holders = Array.from({ length: 10 }, () => server.database.orm.em.fork().execute('select pg_sleep(1)'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const reply = await server.http.post('/api/workspace/v1/channels/list', {}, { headers: { 'X-API-Key': acme.ownerKey } });
    const waited = Date.now() - started;
    await Promise.all(holders);
    expectEnvelopeError(reply, 503, 'service_unavailable');
    expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
    // The 503 itself shows the acquire timeout fired (the holders free their connections after a second); this bounds a hang.
    expect(waited).toBeLessThan(5_000);
    const after = await server.http.post('/api/workspace/v1/channels/list', {}, { headers: { 'X-API-Key': acme.ownerKey } });
    expect(after.status).toBe(200);
  });
});
