import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '@switchboard/contract';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { openWebhookSecret } from '../helpers/secrets-key.js';
import {
  expectEnvelopeError,
  expectError,
  expectForbidden,
  expectForbiddenForOtherTenant,
  expectInvalid,
} from '../helpers/expect.js';
import type { Tenant } from '../helpers/fixtures.js';
import { test as base } from '../helpers/test.js';
import { operatorKeys } from '../helpers/operators.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Does not resolve here: accepted at creation (nothing to refuse), checked again at every delivery. */
const HOOK_URL = 'https://hooks.example.com/switchboard';
const PATHS = {
  list: '/api/platform/v1/webhooks/list',
  manage: '/api/platform/v1/webhooks/manage',
  deliveries: '/api/platform/v1/webhooks/deliveries',
};

// No ALLOW_HTTP_WEBHOOKS: the production rules for URLs (webhooks-delivery.test.ts runs with it, to receive).
const test = base
  .extend('nextKey', { scope: 'file' }, ({ server, acme }) => operatorKeys(server, acme.platformId))
  .extend(
    'manage',
    ({ server, acme, nextKey }) =>
      (params: Record<string, unknown>, key = nextKey(), tenant: Tenant = acme) =>
        // Loosely typed on purpose: several cases send what the contract would refuse to compile.
        server.client(key).platform.webhooks.manage({ platformId: tenant.platformId, ...params } as never),
  )
  .extend('create', ({ manage }) => async (extra: Record<string, unknown> = {}) => {
    // A URL of its own: a platform has one endpoint per URL.
    const url = `${HOOK_URL}?n=${randomUUID()}`;
    const reply = await manage({ url, events: ['ticket.closed'], ...extra });
    return reply.data as Extract<typeof reply.data, { url: string }>;
  });

describe('webhooks/manage: create, update, delete', () => {
  test('creates an endpoint whose secret is in this reply only; webhooks/list never shows it', async ({
    server,
    acme,
    create,
  }) => {
    const created = await create({ events: 'ticket.closed, message.received', description: 'CRM sync' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: expect.stringMatching(/^https:\/\/hooks\.example\.com\/switchboard\?n=/),
      description: 'CRM sync',
      events: ['ticket.closed', 'message.received'],
      enabled: true,
      batch: false,
      status: 'active',
      previousSecretExpiresAt: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const [stored] = await sql<{ secret_ciphertext: string; platform_id: string }>(
      server.databaseUrl,
      'select secret_ciphertext, platform_id from webhook_endpoints where id = $1',
      [created.id],
    );
    expect(stored!.platform_id).toBe(acme.platformId);
    expect(openWebhookSecret(created.id, stored!.secret_ciphertext)).toBe(created.secret);

    const list = await server.client(acme.ownerKey).platform.webhooks.list({ platformId: acme.platformId });
    const { secret: _secret, ...listed } = created;
    expect(list.data).toContainEqual(listed);
    expect(list.total).toBe(list.data.length);
    expect(JSON.stringify(list)).not.toContain('whsec_');
  });

  test('updates url, events, description (null clears) and enabled; the reply carries no secret', async ({
    manage,
    create,
  }) => {
    const created = await create({ description: 'old' });
    const reply = await manage({
      endpointId: created.id,
      url: 'https://hooks.example.com/v2',
      events: ['message.status.updated'],
      description: null,
      enabled: false,
    });
    expect(reply.message).toBe('Webhook endpoint updated successfully');
    expect(reply.data).toEqual({
      ...created,
      secret: undefined,
      url: 'https://hooks.example.com/v2',
      events: ['message.status.updated'],
      description: null,
      enabled: false,
      status: 'paused',
      updatedAt: expect.stringMatching(ISO),
    });
    expect(reply.data).not.toHaveProperty('secret');
    expect((reply.data as { updatedAt: string }).updatedAt >= created.updatedAt).toBe(true);
    const untouched = await manage({ endpointId: created.id, enabled: true });
    expect(untouched.data).toMatchObject({ url: 'https://hooks.example.com/v2', description: null, enabled: true });
  });

  test('deletes an endpoint with its delivery log; afterwards it is 404', async ({ server, acme, manage, create }) => {
    const created = await create();
    const reply = await manage({ endpointId: created.id, delete: true });
    expect(reply).toMatchObject({
      message: 'Webhook endpoint deleted successfully',
      data: { id: created.id, url: created.url },
    });
    expect(
      (await server.client(acme.ownerKey).platform.webhooks.list({ platformId: acme.platformId })).data.map(
        (e) => e.id,
      ),
    ).not.toContain(created.id);
    await expectError(manage({ endpointId: created.id, enabled: false }), 404, 'webhook_not_found');
    expect(await sql(server.databaseUrl, 'select 1 from webhook_endpoints where id = $1', [created.id])).toEqual([]);
  });
});

describe('webhooks/manage: every 400 names the field', () => {
  test('create needs url and events, from the known event types', async ({ manage }) => {
    const failure = await expectError(manage({}), 400, 'invalid_request');
    expect(failure.message).toMatch(
      /url: is required to create an endpoint.*events: is required to create an endpoint/,
    );
    await expectInvalid(
      manage({ url: HOOK_URL, events: ['ticket.closed', 'ticket.created'] }),
      'events',
      `unknown event type "ticket.created"; known: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
    await expectInvalid(manage({ url: HOOK_URL, events: [] }), 'events', 'must name at least one event type');
    await expectInvalid(
      manage({ url: HOOK_URL, events: 7 }),
      'events',
      'must be a comma-separated string or an array of event types',
    );
  });

  test('refuses malformed or non-https URLs, long descriptions, and ids that are not UUIDs', async ({ manage }) => {
    await expectInvalid(
      manage({ url: 'hooks.example.com', events: ['ticket.closed'] }),
      'url',
      'must be an absolute URL',
    );
    await expectInvalid(
      manage({ url: 'http://hooks.example.com/x', events: ['ticket.closed'] }),
      'url',
      'http:// is not allowed; use https://',
    );
    await expectInvalid(
      manage({ url: 'http://localhost:8080/x', events: ['ticket.closed'] }),
      'url',
      'http:// is not allowed; use https://',
    );
    await expectInvalid(
      manage({ url: 'ftp://hooks.example.com/x', events: ['ticket.closed'] }),
      'url',
      'ftp: is not allowed',
    );
    await expectInvalid(
      manage({ url: HOOK_URL, events: ['ticket.closed'], description: 'x'.repeat(501) }),
      'description',
      'must be at most 500 characters',
    );
    await expectInvalid(manage({ endpointId: 'hook-1', enabled: false }), 'endpointId', 'must be a UUID');
    await expectInvalid(manage({ redeliver: 'msg_1' }), 'redeliver', 'must be a UUID');
    await expectInvalid(manage({ endpointId: randomUUID(), enabled: 'yes' }), 'enabled', 'must be a boolean');
  });

  test('refuses options that do not go together', async ({ manage }) => {
    await expectInvalid(
      manage({ url: HOOK_URL, events: ['ticket.closed'], rotateSecret: true }),
      'rotateSecret',
      'applies to an existing endpoint',
    );
    await expectInvalid(
      manage({ url: HOOK_URL, events: ['ticket.closed'], delete: true }),
      'delete',
      'applies to an existing endpoint',
    );
    await expectInvalid(
      manage({ endpointId: randomUUID(), delete: true, url: HOOK_URL }),
      'url',
      'cannot be combined with delete',
    );
    await expectInvalid(
      manage({ endpointId: randomUUID(), delete: true, rotateSecret: true }),
      'rotateSecret',
      'cannot be combined with delete',
    );
    await expectInvalid(
      manage({ redeliver: randomUUID(), endpointId: randomUUID() }),
      'endpointId',
      'cannot be combined with redeliver',
    );
    await expectInvalid(
      manage({ redeliver: randomUUID(), enabled: true }),
      'enabled',
      'cannot be combined with redeliver',
    );
  });
});

describe('webhooks: server-side request forgery', () => {
  test.for([
    ['https://10.1.2.3/hooks', '10.1.2.3 is a private address'],
    ['https://127.0.0.1:8443/hooks', '127.0.0.1 is a loopback address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is a linkLocal address'],
    ['https://[::1]:8443/hooks', '::1 is a loopback address'],
    // IPv4-compatible IPv6 (::/96) was classified public before issue #22.
    ['https://[::7f00:1]/hooks', '::7f00:1 is a ipv4Compatible address'],
    ['https://[::ffff:7f00:1]/hooks', '::ffff:7f00:1 is a loopback address'],
    ['https://localhost:8443/hooks', 'localhost resolves to a non-public address'],
  ])('refuses %s at creation and at update', async ([url, why], { manage, create }) => {
    const failure = await expectInvalid(
      manage({ url, events: ['ticket.closed'] }),
      'url',
      'resolves to a non-public address',
    );
    expect(failure.message).toContain(why);
    const existing = await create();
    await expectInvalid(manage({ endpointId: existing.id, url }), 'url', 'resolves to a non-public address');
  });
});

describe('webhooks: not found, other tenants, access', () => {
  test('404 webhook_not_found and delivery_not_found for ids that do not exist', async ({ server, acme, manage }) => {
    await expectError(
      manage({ endpointId: randomUUID(), rotateSecret: true }),
      404,
      'webhook_not_found',
      /Webhook endpoint .* not found/,
    );
    await expectError(manage({ endpointId: randomUUID(), delete: true }), 404, 'webhook_not_found');
    await expectError(manage({ redeliver: randomUUID() }), 404, 'delivery_not_found', /Webhook delivery .* not found/);
    const deliveries = server
      .client(acme.ownerKey)
      .platform.webhooks.deliveries({ platformId: acme.platformId, endpointId: randomUUID() });
    await expectError(deliveries, 404, 'webhook_not_found');
  });

  test('403 for another platform’s platformId, endpoint and delivery; nothing changes', async ({
    server,
    acme,
    globex,
    manage,
    create,
  }) => {
    const endpoint = await create();
    await server
      .client(acme.ownerKey)
      .platform.tickets.manage({ platformId: acme.platformId, ticketId: acme.ids.tickets!.t1!.id, status: 'closed' });
    const [delivery] = await sql<{ id: string }>(
      server.databaseUrl,
      'select id from webhook_deliveries where endpoint_id = $1',
      [endpoint.id],
    );
    expect(delivery).toBeDefined();

    const intruder = server.client(globex.ownerKey).platform.webhooks;
    await expectForbiddenForOtherTenant(intruder.list({ platformId: acme.platformId }));
    await expectForbiddenForOtherTenant(
      intruder.manage({ platformId: acme.platformId, url: HOOK_URL, events: ['ticket.closed'] }),
    );
    await expectForbiddenForOtherTenant(intruder.deliveries({ platformId: acme.platformId, endpointId: endpoint.id }));
    // Globex's own platformId with Acme's ids.
    const asGlobex = (params: Record<string, unknown>) => manage(params, globex.ownerKey, globex);
    await expectForbiddenForOtherTenant(asGlobex({ endpointId: endpoint.id, url: 'https://evil.example.com/' }));
    await expectForbiddenForOtherTenant(asGlobex({ endpointId: endpoint.id, rotateSecret: true }));
    await expectForbiddenForOtherTenant(asGlobex({ endpointId: endpoint.id, delete: true }));
    await expectForbiddenForOtherTenant(asGlobex({ redeliver: delivery!.id }));
    await expectForbiddenForOtherTenant(
      intruder.deliveries({ platformId: globex.platformId, endpointId: endpoint.id }),
    );
    const [after] = await sql<{ url: string; secret_ciphertext: string }>(
      server.databaseUrl,
      'select url, secret_ciphertext from webhook_endpoints where id = $1',
      [endpoint.id],
    );
    expect(after!.url).toBe(endpoint.url);
    expect(openWebhookSecret(endpoint.id, after!.secret_ciphertext)).toBe(endpoint.secret);
  });

  test('needs platform-level access, but no particular platform permission', async ({ server, acme }) => {
    const member = server.client(acme.memberKey).platform.webhooks;
    await expectForbidden(member.list({ platformId: acme.platformId }), /platform-level access/);
    await expectForbidden(
      member.manage({ platformId: acme.platformId, url: HOOK_URL, events: ['ticket.closed'] }),
      /platform-level access/,
    );
    await expectForbidden(
      member.deliveries({ platformId: acme.platformId, endpointId: randomUUID() }),
      /platform-level access/,
    );
    const auditor = server.client(acme.auditorKey).platform.webhooks;
    expect((await auditor.list({ platformId: acme.platformId })).success).toBe(true);
  });
});

describe('webhooks: GET = POST, rate classes', () => {
  test('GET takes the same parameters in the query string, events as a repeated key', async ({
    server,
    acme,
    nextKey,
    create,
  }) => {
    const headers = { 'X-API-Key': acme.ownerKey };
    const endpoint = await create();
    const query = new URLSearchParams({ platformId: acme.platformId });
    expect((await server.http.get(`${PATHS.list}?${query}`, { headers })).data).toEqual(
      (await server.http.post(PATHS.list, { platformId: acme.platformId }, { headers })).data,
    );
    const logParams = { platformId: acme.platformId, endpointId: endpoint.id, page: '1', limit: '5' };
    const viaGet = await server.http.get(`${PATHS.deliveries}?${new URLSearchParams(logParams)}`, { headers });
    expect(viaGet.data).toEqual(
      (await server.http.post(PATHS.deliveries, { ...logParams, page: 1, limit: 5 }, { headers })).data,
    );
    expect(viaGet.data.pagination).toEqual({ page: 1, limit: 5, total: 0, pages: 0 });

    const createQuery =
      `platformId=${acme.platformId}&url=${encodeURIComponent(`${HOOK_URL}/get`)}` +
      '&events=ticket.closed&events=message.received';
    const created = await server.http.get(`${PATHS.manage}?${createQuery}`, { headers: { 'X-API-Key': nextKey() } });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({
      message: 'Webhook endpoint created successfully',
      data: { events: ['ticket.closed', 'message.received'], secret: expect.stringMatching(/^whsec_/) },
    });
  });

  test('list and deliveries are api_read (120/min), manage is api_admin_write (20/min)', async ({
    server,
    acme,
    create,
  }) => {
    const headers = { 'X-API-Key': acme.auditorKey };
    const endpoint = await create();
    const replies = {
      api_read: [
        await server.http.post(PATHS.list, { platformId: acme.platformId }, { headers }),
        await server.http.post(PATHS.deliveries, { platformId: acme.platformId, endpointId: endpoint.id }, { headers }),
      ],
      api_admin_write: [
        await server.http.post(
          PATHS.manage,
          { platformId: acme.platformId, endpointId: endpoint.id, enabled: true },
          { headers },
        ),
      ],
    };
    for (const [rateClass, limit] of [
      ['api_read', 120],
      ['api_admin_write', 20],
    ] as const) {
      for (const reply of replies[rateClass]) {
        expect(reply.status).toBe(200);
        expect(reply.headers['ratelimit-policy'], rateClass).toBe(`${limit};w=60`);
      }
    }
  });

  test('answers 401 without a key and 400 without platformId', async ({ server, acme }) => {
    expectEnvelopeError(await server.http.post(PATHS.list, { platformId: acme.platformId }), 401, 'unauthorized');
    const missing = await server.http.post(
      PATHS.deliveries,
      { endpointId: randomUUID() },
      { headers: { 'X-API-Key': acme.ownerKey } },
    );
    expectEnvelopeError(missing, 400, 'invalid_request');
    expect(missing.data.message).toMatch(/platformId: is required/);
  });
});
