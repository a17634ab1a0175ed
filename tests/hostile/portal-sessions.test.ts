import { scryptSync } from 'node:crypto';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { runCli } from '../helpers/processes.js';
import { test as base } from '../helpers/test.js';
import { createPortalTenant, PASSWORD, PortalAgent } from '../portal/portal-helpers.js';

/**
 * Issue #22 items 3, 4 and 5 for the Developer Portal: passwords hashed at OWASP's scrypt cost and old hashes
 * upgraded at sign-in; a sign-in ends when the password changes (CLI or any other path), when `settings:api` is
 * taken away, after 7 days whatever the activity, and when its platform is switched off; an inactive platform's
 * API keys are refused at once with 403 `platform_inactive`.
 */
const test = base
  .extend('tenant', ({ server }) => createPortalTenant(server))
  .extend('signedIn', ({ server, tenant }) => async () => {
    const agent = new PortalAgent(server.baseUrl);
    expect((await agent.signIn(tenant.devEmail, PASSWORD)).status).toBe(303);
    expect((await agent.get('/developer/keys')).status).toBe(200);
    return agent;
  });

/** Where a page request of this agent goes now: 200 (still signed in), or the sign-in form (303). */
const keysStatus = async (agent: PortalAgent) => (await agent.get('/developer/keys')).status;

// Every sign-in is a scrypt run at OWASP's cost (128 MiB, up to seconds on a loaded 2-core machine).
describe('portal sessions and passwords', { timeout: 240_000 }, () => {
  test('a hash made with the old parameters is replaced at the next sign-in, ending no session', async ({
    server,
    tenant,
    signedIn,
  }) => {
    const salt = Buffer.from('a salt of 16 byt');
    const hash = scryptSync(PASSWORD, salt, 32, { N: 16384, r: 8, p: 1 });
    const legacy = `scrypt$16384$8$1$${salt.toString('base64')}$${hash.toString('base64')}`;
    const before = await signedIn();
    // As if the hash had been stored before the upgrade: written as a rehash, so no session ends here.
    await sql(
      server.databaseUrl,
      `begin; set local switchboard.password_rehash = 'on';
       update users set password_hash = '${legacy}' where id = '${tenant.devId}'; commit;`,
    );
    const [{ session_version: version }] = (await sql(
      server.databaseUrl,
      'select session_version from users where id = $1',
      [tenant.devId],
    )) as [{ session_version: number }];
    await signedIn();
    const [row] = await sql(server.databaseUrl, 'select password_hash, session_version from users where id = $1', [
      tenant.devId,
    ]);
    expect(row!.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(row!.session_version).toBe(version);
    expect(await keysStatus(before)).toBe(200);
  });

  test('changing the password with the CLI ends the user’s sessions at once', async ({ server, tenant, signedIn }) => {
    const agent = await signedIn();
    const changed = await runCli(
      ['user', 'set-password', '--email', tenant.devEmail, '--platform', tenant.domainA],
      { DATABASE_URL: server.databaseUrl },
      'a brand new password\n',
    );
    expect(changed.code, changed.stderr).toBe(0);
    expect(await keysStatus(agent)).toBe(303);
    expect((await new PortalAgent(server.baseUrl).signIn(tenant.devEmail, 'a brand new password')).status).toBe(303);
  });

  test('losing settings:api ends the sessions: getting it back does not revive them', async ({
    server,
    tenant,
    signedIn,
  }) => {
    const agent = await signedIn();
    const permissions = (list: string) =>
      sql(server.databaseUrl, `update users set permissions = $1::text[] where id = $2`, [list, tenant.devId]);
    await permissions('{}');
    await permissions('{settings:api}');
    expect(await keysStatus(agent)).toBe(303);
  });

  test('a sign-in lasts 7 days at most, however active', async ({ server, tenant, signedIn }) => {
    const agent = await signedIn();
    const eightDaysAgo = Date.now() - 8 * 24 * 3_600_000;
    await sql(
      server.databaseUrl,
      `update portal_sessions set sess = jsonb_set(sess::jsonb, '{signedInAt}', to_jsonb($1::bigint))::json
        where sess->>'userId' = $2`,
      [eightDaysAgo, tenant.devId],
    );
    expect(await keysStatus(agent)).toBe(303);
  });

  test('an inactive platform: its keys get 403 platform_inactive at once, its users cannot sign in', async ({
    server,
    acme,
    tenant,
    signedIn,
  }) => {
    const agent = await signedIn();
    const channels = () =>
      server.http.post('/api/workspace/v1/channels/list', {}, { headers: { 'X-API-Key': acme.ownerKey } });
    expect((await channels()).status).toBe(200);
    const active = (platformId: string, value: boolean) =>
      sql(server.databaseUrl, 'update platforms set is_active = $1 where id = $2', [value, platformId]);
    await active(acme.platformId, false);
    await active(tenant.platformAId, false);
    // The key was just cached: the change must evict it at once.
    const refused = await channels();
    expect(refused.status).toBe(403);
    expect(refused.data).toEqual({
      success: false,
      error: 'platform_inactive',
      message: expect.stringContaining('inactive'),
    });
    expect(await keysStatus(agent)).toBe(303);
    const signIn = await new PortalAgent(server.baseUrl).signIn(tenant.devEmail, PASSWORD);
    expect(signIn.status).toBe(403);
    expect(signIn.text).toContain('This platform is inactive');

    await active(acme.platformId, true);
    expect((await channels()).status).toBe(200);
  });
});
