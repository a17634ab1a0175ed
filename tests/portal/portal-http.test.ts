import { EXAMPLE_IDS } from '@switchboard/contract';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { mcpOverHttp } from '../helpers/mcp.js';
import { startTestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';
import { createPortalTenant, OTHER_PASSWORD, PASSWORD, PortalAgent } from './portal-helpers.js';

const WRONG = 'The email or password is incorrect.';
const HTML_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescapeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity]!);
const cookieNamed = (cookies: string[], name: string) => cookies.find((c) => c.startsWith(`${name}=`));

const test = base
  .extend('tenant', { scope: 'file' }, ({ server }) => createPortalTenant(server))
  .extend(
    'agent',
    ({ server }) =>
      () =>
        new PortalAgent(server.baseUrl),
  );

// Every password check is a scrypt run at OWASP's cost (128 MiB, up to seconds on a loaded 2-core machine).
describe('Developer Portal over HTTP', { timeout: 120_000 }, () => {
  test('sends anonymous visitors to the sign-in form, for pages and downloads alike', async ({ agent }) => {
    for (const path of [
      '/developer/keys',
      '/developer/reference',
      '/developer/reference/openapi.json',
      '/developer/downloads/openapi.json',
      '/developer/downloads/postman-environment.json',
      '/developer/nowhere',
    ]) {
      const reply = await agent().get(path);
      expect(reply.status, path).toBe(303);
      expect(reply.headers.get('location')).toBe('/developer/sign-in');
    }
  });

  test('sets an HttpOnly, SameSite=Lax session cookie scoped to /developer, not Secure over plain HTTP', async ({
    server,
    tenant,
    agent,
  }) => {
    const visitor = agent();
    const form = await visitor.get('/developer/sign-in');
    const anonymous = cookieNamed(form.setCookies, 'sb_portal')!;
    expect(anonymous).toMatch(/; HttpOnly/);
    expect(anonymous).toMatch(/; SameSite=Lax/);
    expect(anonymous).toMatch(/; Path=\/developer/);
    expect(anonymous).not.toMatch(/; Secure/);
    // Without TRUST_PROXY a forwarded "https" is not believed.
    const spoofed = await new PortalAgent(server.baseUrl, { 'x-forwarded-proto': 'https' }).get('/developer/sign-in');
    expect(cookieNamed(spoofed.setCookies, 'sb_portal')).not.toMatch(/; Secure/);

    const signedIn = await visitor.post('/developer/sign-in', {
      _csrf: PortalAgent.csrf(form.text),
      email: tenant.devEmail,
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    const session = cookieNamed(signedIn.setCookies, 'sb_portal')!;
    // A new session id at sign-in: a cookie planted before sign-in is worthless afterwards.
    expect(session.split(';')[0]).not.toBe(anonymous.split(';')[0]);
    expect(session).toMatch(/; HttpOnly/);
  });

  test('marks the cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
    const proxied = await startTestServer({ TRUST_PROXY: '1' });
    try {
      const reply = await new PortalAgent(proxied.baseUrl, { 'x-forwarded-proto': 'https' }).get('/developer/sign-in');
      expect(cookieNamed(reply.setCookies, 'sb_portal')).toMatch(/; Secure/);
      const plain = await new PortalAgent(proxied.baseUrl).get('/developer/sign-in');
      expect(cookieNamed(plain.setCookies, 'sb_portal')).not.toMatch(/; Secure/);
    } finally {
      await proxied.close();
    }
  });

  test('signs in with email and password, keeps the session in PostgreSQL, and signs out', async ({
    server,
    tenant,
    agent,
  }) => {
    const user = agent();
    const signIn = await user.signIn(tenant.devEmail, PASSWORD);
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/developer/keys');
    const keys = await user.get('/developer/keys');
    expect(keys.status).toBe(200);
    expect(keys.text).toContain(tenant.devEmail);
    expect(keys.text).toContain('Alpha Co');
    expect(keys.headers.get('cache-control')).toBe('no-store');
    const stored = await sql(server.databaseUrl, `select sid from portal_sessions where sess->>'userId' = $1`, [
      tenant.devId,
    ]);
    expect(stored.length).toBeGreaterThanOrEqual(1);

    const before = await sql(server.databaseUrl, 'select count(*)::int as n from portal_sessions');
    const signOut = await user.post('/developer/sign-out', { _csrf: PortalAgent.csrf(keys.text) });
    expect(signOut.status).toBe(303);
    expect(signOut.headers.get('location')).toBe('/developer/sign-in?signed-out=1');
    expect(cookieNamed(signOut.setCookies, 'sb_portal')).toMatch(/Expires=Thu, 01 Jan 1970/);
    const after = await sql(server.databaseUrl, 'select count(*)::int as n from portal_sessions');
    expect(after[0]!.n).toBe(before[0]!.n - 1);
    expect((await user.get('/developer/keys')).status).toBe(303);
  });

  test('answers a wrong password and an unknown email with the same status and message', async ({ tenant, agent }) => {
    // That both cost one scrypt run is pinned by sign-in.service.test.ts (counting runs, not timing them).
    for (const email of [tenant.devEmail, 'nobody@example.com']) {
      const reply = await agent().signIn(email, 'not the password');
      expect(reply.status).toBe(401);
      expect(reply.text).toContain(WRONG);
      expect(reply.text).not.toMatch(/no account|not found|unknown|does not exist/i);
    }
  });

  test('feeds the reference a definition whose examples carry the signed-in user’s own ids', async ({
    tenant,
    agent,
  }) => {
    const dev = agent();
    expect((await dev.signIn(tenant.devEmail, PASSWORD)).status).toBe(303);
    const reply = await dev.get('/developer/reference/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toContain('no-store');
    const doc = JSON.parse(reply.text) as {
      paths: Record<
        string,
        { post: { requestBody: { content: { 'application/json': { example: Record<string, unknown> } } } } }
      >;
    };
    const example = (path: string) => doc.paths[path]!.post.requestBody.content['application/json'].example;
    expect(example('/api/workspace/v1/contacts/list').channelId).toBe(tenant.channelId);
    expect(example('/api/platform/v1/addon/manage')).toMatchObject({
      platformId: tenant.platformAId,
      userId: tenant.devId,
      addonId: tenant.addonId,
    });
    expect(example('/api/platform/v1/tickets/get')).toEqual({
      platformId: tenant.platformAId,
      ticketId: tenant.ticketId,
    });
    for (const sample of [
      EXAMPLE_IDS.channelId,
      EXAMPLE_IDS.platformId,
      EXAMPLE_IDS.userId,
      EXAMPLE_IDS.addonId,
      EXAMPLE_IDS.ticketId,
    ])
      expect(reply.text).not.toContain(sample);
    // Never a real contact for contacts/delete: "Send" must not delete one of the user's contacts.
    expect(example('/api/workspace/v1/contacts/delete')).toMatchObject({ contactId: EXAMPLE_IDS.contactId });
    // The downloads stay generic: the same files for everyone.
    expect((await dev.get('/developer/downloads/openapi.json')).text).toContain(EXAMPLE_IDS.channelId);
  });

  test('offers the Postman environment with the signed-in user’s own ids and no API key', async ({
    server,
    tenant,
    agent,
  }) => {
    const dev = agent();
    expect((await dev.signIn(tenant.devEmail, PASSWORD)).status).toBe(303);
    const reply = await dev.get('/developer/downloads/postman-environment.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-disposition')).toBe(
      'attachment; filename="switchboard.postman_environment.json"',
    );
    expect(reply.headers.get('cache-control')).toContain('no-store');
    const environment = JSON.parse(reply.text) as { values: { key: string; value: string; type: string }[] };
    const values = Object.fromEntries(environment.values.map(({ key, value }) => [key, value]));
    expect(values).toMatchObject({
      baseUrl: server.baseUrl,
      apiKey: '',
      platformId: tenant.platformAId,
      channelId: tenant.channelId,
      userId: tenant.devId,
      addonId: tenant.addonId,
      ticketId: tenant.ticketId,
      contactId: '',
    });
    expect(environment.values.find(({ key }) => key === 'apiKey')?.type).toBe('secret');
    expect((await dev.get('/developer/downloads')).text).toContain(
      'href="/developer/downloads/postman-environment.json"',
    );
  });

  test('shows users without settings:api a clear 403 page after signing in', async ({ tenant, agent }) => {
    const plain = agent();
    expect((await plain.signIn(tenant.plainEmail, PASSWORD)).status).toBe(303);
    for (const path of [
      '/developer/keys',
      '/developer/reference',
      '/developer/downloads/openapi.json',
      '/developer/downloads/postman-environment.json',
    ]) {
      const reply = await plain.get(path);
      expect(reply.status, path).toBe(403);
      expect(reply.text).toContain('settings:api');
      expect(reply.text).toContain('Sign out');
    }
  });

  test('signs in the user whose password matches when the email exists on several platforms', async ({
    tenant,
    agent,
  }) => {
    const beta = agent();
    expect((await beta.signIn(tenant.devEmail, OTHER_PASSWORD)).status).toBe(303);
    expect((await beta.get('/developer/keys')).text).toContain('Beta Co');
    const alpha = agent();
    expect((await alpha.signIn(tenant.devEmail, PASSWORD)).status).toBe(303);
    expect((await alpha.get('/developer/keys')).text).toContain('Alpha Co');
  });

  test('asks for the platform domain only when the password matches on several platforms', async ({
    tenant,
    agent,
  }) => {
    const user = agent();
    const asked = await user.signIn(tenant.sharedEmail, PASSWORD);
    expect(asked.status).toBe(400);
    expect(asked.text).toContain('name="platform"');
    const chosen = await user.post('/developer/sign-in', {
      _csrf: PortalAgent.csrf(asked.text),
      email: tenant.sharedEmail,
      password: PASSWORD,
      platform: tenant.domainB,
    });
    expect(chosen.status).toBe(303);
    expect((await user.get('/developer/keys')).text).toContain('Beta Co');
  });

  test('refuses form posts without the session’s CSRF token', async ({ server, tenant, agent }) => {
    const visitor = agent();
    const form = await visitor.get('/developer/sign-in');
    const noToken = await visitor.post('/developer/sign-in', { email: tenant.devEmail, password: PASSWORD });
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('Form expired');
    // A token from another visitor's session does not fit this session.
    const foreign = PortalAgent.csrf((await agent().get('/developer/sign-in')).text);
    expect(
      (await visitor.post('/developer/sign-in', { _csrf: foreign, email: tenant.devEmail, password: PASSWORD })).status,
    ).toBe(403);
    expect((await visitor.get('/developer/keys')).status).toBe(303);

    expect(
      (
        await visitor.post('/developer/sign-in', {
          _csrf: PortalAgent.csrf(form.text),
          email: tenant.devEmail,
          password: PASSWORD,
        })
      ).status,
    ).toBe(303);
    const keys = await visitor.get('/developer/keys');
    const token = PortalAgent.csrf(keys.text);
    expect((await visitor.post('/developer/keys', { name: 'forged' })).status).toBe(403);
    expect((await visitor.post('/developer/keys', { name: 'forged', _csrf: token.slice(1) + 'x' })).status).toBe(403);
    expect((await visitor.post('/developer/sign-out', {})).status).toBe(403);
    const rows = await sql(
      server.databaseUrl,
      `select count(*)::int as n from api_keys where user_id = $1 and name = 'forged'`,
      [tenant.devId],
    );
    expect(rows[0]!.n).toBe(0);
    expect((await visitor.get('/developer/keys')).status).toBe(200);
  });

  test('answers malformed form posts with a 4xx page, never a 500', async ({ tenant, agent }) => {
    const visitor = agent();
    const token = PortalAgent.csrf((await visitor.get('/developer/sign-in')).text);
    const manyFields = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x']));
    expect((await visitor.post('/developer/sign-in', { _csrf: token, ...manyFields })).status).toBe(413);
    expect(
      (await visitor.post('/developer/sign-in', { _csrf: token, email: 'x'.repeat(20_000), password: 'y' })).status,
    ).toBe(413);
    const json = await visitor.request('/developer/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(403);
    const missing = await visitor.post('/developer/sign-in', { _csrf: token, email: tenant.devEmail });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('Enter your email and password.');
  });

  test('limits failed sign-ins per IP and email, even against the right password afterwards', async ({
    server,
    agent,
  }) => {
    const own = await createPortalTenant(server);
    for (let i = 0; i < 5; i += 1) expect((await agent().signIn(own.devEmail, `wrong ${i}`)).status).toBe(401);
    const locked = await agent().signIn(own.devEmail, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many failed sign-in attempts');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    // Another account from the same address is not locked out.
    expect((await agent().signIn(own.plainEmail, PASSWORD)).status).toBe(303);
  });

  test('counts parallel guesses too: at most five get a password check', async ({ server, agent }) => {
    const own = await createPortalTenant(server);
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        agent()
          .signIn(own.devEmail, `guess ${i}`)
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  test('clears the failure count after a successful sign-in', async ({ server, agent }) => {
    const own = await createPortalTenant(server);
    for (let i = 0; i < 4; i += 1) await agent().signIn(own.devEmail, 'wrong');
    expect((await agent().signIn(own.devEmail, PASSWORD)).status).toBe(303);
    for (let i = 0; i < 4; i += 1) await agent().signIn(own.devEmail, 'wrong');
    expect((await agent().signIn(own.devEmail, PASSWORD)).status).toBe(303);
  });

  test('validates the key name and revokes only the user’s own keys', async ({ server, tenant, agent }) => {
    const dana = agent();
    await dana.signIn(tenant.devEmail, PASSWORD);
    const token = PortalAgent.csrf((await dana.get('/developer/keys')).text);
    const blank = await dana.post('/developer/keys', { _csrf: token, name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('Enter a name for the key.');
    expect(blank.text).toContain('aria-invalid="true"');

    const beta = agent();
    await beta.signIn(tenant.devEmail, OTHER_PASSWORD);
    const betaToken = PortalAgent.csrf((await beta.get('/developer/keys')).text);
    const created = await beta.post('/developer/keys', { _csrf: betaToken, name: 'beta key' });
    const betaKey = /value="(sb_live_[^"]+)"/.exec(created.text)![1]!;
    const prefix = betaKey.slice(0, 16);
    expect((await dana.get(`/developer/keys/${prefix}/revoke`)).status).toBe(404);
    expect((await dana.post(`/developer/keys/${prefix}/revoke`, { _csrf: token })).status).toBe(404);
    const [row] = await sql(server.databaseUrl, 'select revoked_at from api_keys where prefix = $1', [prefix]);
    expect(row!.revoked_at).toBeNull();
  });

  test('generates a key shown once, which the API accepts until it is revoked', async ({ server, tenant, agent }) => {
    const dana = agent();
    await dana.signIn(tenant.devEmail, PASSWORD);
    const token = PortalAgent.csrf((await dana.get('/developer/keys')).text);
    const created = await dana.post('/developer/keys', { _csrf: token, name: 'http test' });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const apiKey = /value="(sb_live_[^"]+)"/.exec(created.text)![1]!;
    const prefix = apiKey.slice(0, 16);
    const listing = await dana.get('/developer/keys');
    expect(listing.text).toContain(prefix);
    expect(listing.text).not.toContain(apiKey);

    const call = () => server.http.post('/api/workspace/v1/channels/list', {}, { headers: { 'X-API-Key': apiKey } });
    expect((await call()).status).toBe(200);
    const revoked = await dana.post(`/developer/keys/${prefix}/revoke`, { _csrf: token });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe(`/developer/keys?revoked=${prefix}`);
    expect((await call()).status).toBe(401);
  });

  test('lists the MCP endpoint and copyable client configurations; with a new key, one that works as it is', async ({
    server,
    tenant,
    agent,
  }) => {
    const dana = agent();
    await dana.signIn(tenant.devEmail, PASSWORD);
    const field = (page: string, id: string) =>
      unescapeHtml(
        new RegExp(`id="${id}"[^>]*?(?:value="([^"]*)"[^>]*>|>([^<]*)</textarea>)`).exec(page)!.slice(1).join(''),
      );
    const listing = await dana.get('/developer/keys');
    expect(field(listing.text, 'mcp-endpoint')).toBe(`${server.baseUrl}/mcp`);
    expect(JSON.parse(field(listing.text, 'mcp-http-config'))).toEqual({
      mcpServers: {
        switchboard: { type: 'http', url: `${server.baseUrl}/mcp`, headers: { 'X-API-Key': '<your API key>' } },
      },
    });
    const created = await dana.post('/developer/keys', { _csrf: PortalAgent.csrf(listing.text), name: 'agent' });
    const apiKey = /value="(sb_live_[^"]+)"/.exec(created.text)![1]!;
    const stdio = JSON.parse(field(created.text, 'mcp-stdio-config')).mcpServers.switchboard;
    expect(stdio).toEqual({
      command: 'npx',
      args: ['-y', '@switchboard/mcp'],
      env: { SWITCHBOARD_URL: server.baseUrl, SWITCHBOARD_API_KEY: apiKey },
    });
    // The HTTP configuration, as an MCP client reads it: it connects and lists the tools.
    const { url, headers } = JSON.parse(field(created.text, 'mcp-http-config')).mcpServers.switchboard;
    expect(url).toBe(`${server.baseUrl}/mcp`);
    const client = await mcpOverHttp(new URL(url).origin, headers);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('chat_message_send');
    await client.close();
  });

  test('serves every page with security headers and a same-origin CSP', async ({ tenant, agent }) => {
    const dana = agent();
    await dana.signIn(tenant.devEmail, PASSWORD);
    for (const path of ['/developer/sign-in', '/developer/keys', '/developer/reference', '/developer/downloads']) {
      const reply = await dana.get(path);
      expect(reply.status, path).toBe(path === '/developer/sign-in' ? 303 : 200);
      const csp = reply.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-eval|https?:\/\//);
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
      expect(reply.headers.get('x-powered-by')).toBeNull();
    }
  });

  test('serves the three downloads, generated once per process', async ({ server, tenant, agent }) => {
    const dana = agent();
    await dana.signIn(tenant.devEmail, PASSWORD);
    const json = await dana.get('/developer/downloads/openapi.json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toMatch(/attachment; filename="switchboard-openapi.json"/);
    expect(JSON.parse(json.text).servers[0].variables.baseUrl.default).toBe(server.baseUrl);
    expect((await dana.get('/developer/downloads/openapi.json')).text).toBe(json.text);
    expect((await dana.get('/developer/downloads/openapi.yaml')).headers.get('content-type')).toMatch(/yaml/);
    expect(JSON.parse((await dana.get('/developer/downloads/postman.json')).text).info.schema).toMatch(/v2\.1\.0/);
  });
});
