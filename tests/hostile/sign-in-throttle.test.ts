import { describe, expect } from 'vitest';
import { skipWithout } from '../helpers/optional-services.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';
import { createPortalTenant, PASSWORD, PortalAgent } from '../portal/portal-helpers.js';

/**
 * Issue #22 item 2: sign-in throttling held per client address only, and with `TRUST_PROXY=true` the address is
 * whatever the client writes into X-Forwarded-For: 12 wrong passwords from 12 forged addresses all got 401 and the
 * right one then signed in. Now `true` is refused (config.test.ts) and each account has a failure budget of its
 * own (10 per 15 minutes) whatever the addresses, the same for an unknown email as for a wrong password.
 */
const test = base;
// One proxy hop trusted, and requests come straight from the test: X-Forwarded-For is as forged as it gets.
test.override('serverEnv', { TRUST_PROXY: '1' });

const forgedAddress = (i: number) => `203.0.113.${i + 1}`;
const signInFrom = (server: TestServer, i: number, email: string, password: string) =>
  new PortalAgent(server.baseUrl, { 'x-forwarded-for': forgedAddress(i) }).signIn(email, password);

// Every password check is a scrypt run at OWASP's cost (128 MiB, up to seconds on a loaded 2-core machine).
describe('sign-in throttling per account', { timeout: 240_000 }, () => {
  test('wrong passwords from many forged addresses stop after 10, and then the right one waits too', async ({
    server,
  }) => {
    const tenant = await createPortalTenant(server);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await signInFrom(server, i, tenant.devEmail, `wrong ${i}`)).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    const right = await signInFrom(server, 12, tenant.devEmail, PASSWORD);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(right.text).toContain('Too many failed sign-in attempts');
    // Another account is not affected.
    expect((await signInFrom(server, 13, tenant.plainEmail, PASSWORD)).status).toBe(303);
  });

  test('an email without an account is limited the same way, with the same words', async ({ server }) => {
    const tenant = await createPortalTenant(server);
    const unknown = `nobody-${tenant.domainA}`;
    const replies = [];
    for (let i = 0; i < 11; i += 1) replies.push(await signInFrom(server, 20 + i, unknown, 'guess'));
    expect(replies.map((reply) => reply.status)).toEqual([...Array<number>(10).fill(401), 429]);
    const words = (text: string) => /<p[^>]*role="alert"[^>]*>([^<]*)</.exec(text)?.[1];
    expect(words(replies[0]!.text)).toBe('The email or password is incorrect.');
    expect(words(replies[10]!.text)).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
  });

  test('the budget holds across instances through Redis', async ({ server }) => {
    if (skipWithout('redis', await redisAvailable(), `no Redis at ${REDIS_URL}`)) return;
    const env = { REDIS_URL, TRUST_PROXY: '1' };
    const [a, b] = [
      await startTestServer({ ...env, DATABASE_URL: server.databaseUrl }),
      await startTestServer({ ...env, DATABASE_URL: server.databaseUrl }),
    ];
    try {
      const tenant = await createPortalTenant(a);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1)
        statuses.push((await signInFrom(i % 2 ? b : a, 80 + i, tenant.devEmail, `wrong ${i}`)).status);
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
      expect((await signInFrom(a, 99, tenant.devEmail, PASSWORD)).status).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
