import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

const test = base.extend('sb', ({ server, acme }) => server.client(acme.ownerKey).platform);

describe('platform addon/list', () => {
  test.beforeAll(async ({ server, acme, globex }) => {
    await server.seed({
      plans: [
        {
          platform: acme.platformId,
          name: 'Priority support',
          itemType: 'addon',
          prices: { monthly: 9.5 },
          currency: 'EUR',
          isActive: false,
        },
        { platform: acme.platformId, name: 'Legacy', itemType: 'plan', prices: { annual: 100 } },
        { platform: globex.platformId, name: 'Globex only', itemType: 'addon', prices: { onetime: 1 } },
      ],
    });
  });

  test('lists the platform’s add-ons only, inactive ones included, with prices and total', async ({ acme, sb }) => {
    expect(await sb.addon.list({ platformId: acme.platformId })).toEqual({
      success: true,
      total: 2,
      data: [
        {
          id: acme.ids.plans!.seats,
          name: 'Extra seats',
          itemType: 'addon',
          prices: { monthly: 5, annual: 50, onetime: 20 },
          currency: 'USD',
          isActive: true,
        },
        {
          id: expect.any(String),
          name: 'Priority support',
          itemType: 'addon',
          prices: { monthly: 9.5 },
          currency: 'EUR',
          isActive: false,
        },
      ],
    });
  });

  test('gives the addonId addon/manage takes', async ({ acme, sb }) => {
    const [seats] = (await sb.addon.list({ platformId: acme.platformId })).data;
    expect(
      (await sb.addon.manage({ platformId: acme.platformId, userId: acme.ownerId, addonId: seats!.id })).message,
    ).toBe('Addon assigned successfully');
  });

  test('GET = POST', async ({ server, acme }) => {
    const headers = { 'X-API-Key': acme.ownerKey };
    const post = await server.http.post('/api/platform/v1/addon/list', { platformId: acme.platformId }, { headers });
    const get = await server.http.get(`/api/platform/v1/addon/list?platformId=${acme.platformId}`, { headers });
    expect(get.status).toBe(200);
    expect(get.data).toEqual(post.data);
    expect(get.headers['ratelimit-policy']).toBe('120;w=60');
  });
});

describe('platform users/list', () => {
  test('lists the platform’s users oldest first, with role, access, permissions, subscription, no secrets', async ({
    server,
    acme,
    sb,
  }) => {
    const reply = await sb.users.list({ platformId: acme.platformId });
    expect(reply.pagination).toEqual({ page: 1, limit: 50, total: 6, pages: 1 });
    const owner = reply.data.find((u) => u.id === acme.ownerId);
    expect(owner).toEqual({
      id: acme.ownerId,
      name: 'Acme Owner',
      email: expect.stringMatching(/^owner@/),
      role: 'owner',
      platformAccess: true,
      permissions: ['platform:view', 'platform:edit', 'platform:manage', 'settings:api'],
      hasActiveSubscription: true,
      createdAt: ISO,
    });
    expect(reply.data.filter((u) => u.hasActiveSubscription).map((u) => u.id)).toEqual([acme.ownerId]);
    expect(reply.data.map((u) => u.name)).toEqual(
      expect.arrayContaining(['Acme Member', 'Acme Auditor', 'Acme Lonely', 'Acme Admin']),
    );
    const text = JSON.stringify(reply);
    expect(text).not.toMatch(/password|hash|scrypt|sb_live_|apiKey/i);
    const keyHashes = await sql<{ key_hash: string }>(server.databaseUrl, 'select key_hash from api_keys');
    for (const { key_hash } of keyHashes) expect(text).not.toContain(key_hash);
  });

  test('orders oldest first and pages with pagination', async ({ server, acme, sb }) => {
    const order = ['Acme Owner', 'Acme Member', 'Acme Auditor', 'Acme Lonely', 'Acme Admin', 'customer'];
    await sql(
      server.databaseUrl,
      `update users set created_at = now() - (10 - array_position($2::text[], name)) * interval '1 minute' where ` +
        `platform_id = $1`,
      [acme.platformId, order],
    );
    const all = (await sb.users.list({ platformId: acme.platformId })).data.map((u) => u.name);
    expect(all).toEqual(order);
    const page = await sb.users.list({ platformId: acme.platformId, page: 2, limit: 4 });
    expect(page.pagination).toEqual({ page: 2, limit: 4, total: 6, pages: 2 });
    expect(page.data.map((u) => u.name)).toEqual(all.slice(4));
    expect((await sb.users.list({ platformId: acme.platformId, page: 3, limit: 4 })).data).toEqual([]);
  });

  test('filters by email (case-insensitive, exact) and role', async ({ acme, sb }) => {
    const owner = (await sb.users.list({ platformId: acme.platformId, role: 'owner' })).data;
    expect(owner.map((u) => u.id)).toEqual([acme.ownerId]);
    const byEmail = await sb.users.list({ platformId: acme.platformId, email: owner[0]!.email.toUpperCase() });
    expect(byEmail.data.map((u) => u.id)).toEqual([acme.ownerId]);
    expect(
      (await sb.users.list({ platformId: acme.platformId, email: owner[0]!.email.slice(0, 5) })).pagination.total,
    ).toBe(0);
    expect(
      (await sb.users.list({ platformId: acme.platformId, role: 'admin' })).data.map((u) => u.name).sort(),
    ).toEqual(['Acme Admin', 'customer']);
    expect(
      (await sb.users.list({ platformId: acme.platformId, role: 'owner', email: 'nobody@example.com' })).data,
    ).toEqual([]);
  });

  test('never lists another platform’s users', async ({ acme, globex, sb }) => {
    const ids = (await sb.users.list({ platformId: acme.platformId, limit: 200 })).data.map((u) => u.id);
    expect(ids).not.toContain(globex.ownerId);
  });

  test('400 naming the field for bad filters and paging', async ({ acme, sb }) => {
    const platformId = acme.platformId;
    await expectInvalid(
      sb.users.list({ platformId, role: 'boss' as never }),
      'role',
      'must be one of owner, admin, member',
    );
    await expectInvalid(sb.users.list({ platformId, email: '' }), 'email', 'must not be empty');
    await expectInvalid(sb.users.list({ platformId, limit: 201 }), 'limit', 'must be at most 200');
    await expectInvalid(sb.users.list({ platformId, page: 0 }), 'page', 'must be at least 1');
  });

  test('GET = POST', async ({ server, acme }) => {
    const headers = { 'X-API-Key': acme.ownerKey };
    const post = await server.http.post(
      '/api/platform/v1/users/list',
      { platformId: acme.platformId, role: 'admin', limit: 1, page: 2 },
      { headers },
    );
    const get = await server.http.get(
      `/api/platform/v1/users/list?platformId=${acme.platformId}&role=admin&limit=1&page=2`,
      { headers },
    );
    expect(get.status).toBe(200);
    expect(get.data).toEqual(post.data);
    expect(get.data.pagination).toEqual({ page: 2, limit: 1, total: 2, pages: 2 });
    expect(get.headers['ratelimit-policy']).toBe('120;w=60');
  });
});
