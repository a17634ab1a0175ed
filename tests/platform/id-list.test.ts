import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('POST /api/platform/v1/id/list', () => {
  let server: TestServer;
  let acme: Tenant;

  beforeAll(async () => {
    server = await startTestServer();
    acme = await createTenant(server, 'Acme');
    await createTenant(server, 'Globex');
  });
  afterAll(() => server?.close());

  it('returns the key’s platform with its user count and owner', async () => {
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

  it('answers GET with the same data', async () => {
    const viaGet = await server.http.get('/api/platform/v1/id/list', { headers: { 'X-API-Key': acme.ownerKey } });
    expect(viaGet.status).toBe(200);
    expect(viaGet.data.data.id).toBe(acme.platformId);
  });

  it('counts users as they are added (a ticket for a new email creates one)', async () => {
    const sb = server.client(acme.ownerKey).platform;
    const before = (await sb.id.list()).data.totalUsers;
    await sb.tickets.manage({ platformId: acme.platformId, email: 'newcomer@example.com', title: 'Hi', description: 'First contact' });
    expect((await sb.id.list()).data.totalUsers).toBe(before + 1);
  });

  it('gives owner null for a platform without an owner, and honours instance:view', async () => {
    const ids = await server.seed({
      platforms: [{ ref: 'p', name: 'Ownerless', domain: 'ownerless.example.com', isActive: false }],
      users: [{ ref: 'ops', platform: 'p', email: 'ops@ownerless.example.com', name: 'Ops', role: 'admin', platformAccess: true, permissions: ['instance:view'], apiKey: true }],
    });
    const reply = await server.client(ids.users!.ops!.apiKey!).platform.id.list();
    expect(reply.data).toMatchObject({ id: ids.platforms!.p, name: 'Ownerless', isActive: false, totalUsers: 1, owner: null });
  });
});
