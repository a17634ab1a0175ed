import { describe, expect } from 'vitest';
import { test } from '../helpers/test.js';

describe('POST /api/platform/v1/id/list', () => {
  // Acme and then Globex are seeded before the first test: the counts below must leave the other platform's users out.
  test.beforeAll(async ({ acme: _acme, globex: _globex }) => {});

  test('returns the key’s platform with its user count and owner', async ({ server, acme }) => {
    const reply = await server.client(acme.ownerKey).platform.id.list();
    expect(reply.success).toBe(true);
    expect(reply.data).toEqual({
      id: acme.platformId,
      name: 'Acme',
      domain: expect.stringMatching(/^acme-[0-9a-f]{8}\.example\.com$/),
      isActive: true,
      // owner, member, auditor, lonely, admin, and the ticket's customer (created as an admin user).
      totalUsers: 6,
      owner: { id: acme.ownerId, name: 'Acme Owner', email: expect.stringMatching(/^owner@/) },
    });
  });

  test('answers GET with the same data', async ({ server, acme }) => {
    const viaGet = await server.http.get('/api/platform/v1/id/list', { headers: { 'X-API-Key': acme.ownerKey } });
    expect(viaGet.status).toBe(200);
    expect(viaGet.data.data.id).toBe(acme.platformId);
  });

  test('counts users as they are added (a ticket for a new email creates one)', async ({ server, acme }) => {
    const sb = server.client(acme.ownerKey).platform;
    const before = (await sb.id.list()).data.totalUsers;
    await sb.tickets.manage({
      platformId: acme.platformId,
      email: 'newcomer@example.com',
      title: 'Hi',
      description: 'First contact',
    });
    expect((await sb.id.list()).data.totalUsers).toBe(before + 1);
  });

  test('gives owner null for a platform without an owner, and honours instance:view', async ({ server }) => {
    const ids = await server.seed({
      // Active: an inactive platform's keys get 403 platform_inactive (tests/hostile/portal-sessions.test.ts).
      platforms: [{ ref: 'p', name: 'Ownerless', domain: 'ownerless.example.com' }],
      users: [
        {
          ref: 'ops',
          platform: 'p',
          email: 'ops@ownerless.example.com',
          name: 'Ops',
          role: 'admin',
          platformAccess: true,
          permissions: ['instance:view'],
          apiKey: true,
        },
      ],
    });
    const reply = await server.client(ids.users!.ops!.apiKey!).platform.id.list();
    expect(reply.data).toMatchObject({
      id: ids.platforms!.p,
      name: 'Ownerless',
      isActive: true,
      totalUsers: 1,
      owner: null,
    });
  });
});
