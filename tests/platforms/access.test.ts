import { describe, expect } from 'vitest';
import type { Tenant } from '../helpers/fixtures.js';
import { expectEnvelopeError, expectForbidden, expectForbiddenForOtherTenant } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';

const test = base.extend('calls', ({ server }) => (tenant: Tenant, key: string, platformId = tenant.platformId) => {
  const sb = server.client(key).platform;
  return {
    'id/list': () => sb.id.list(),
    'subscription/list': () => sb.subscription.list({ platformId }),
    'addon/list': () => sb.addon.list({ platformId }),
    'addon/manage': () => sb.addon.manage({ platformId, userId: tenant.ownerId, addonId: tenant.ids.plans!.seats! }),
    'users/list': () => sb.users.list({ platformId }),
    'tickets/list': () => sb.tickets.list({ platformId }),
    'tickets/get': () => sb.tickets.get({ platformId, ticketId: tenant.ids.tickets!.t1!.id }),
    'tickets/manage': () => sb.tickets.manage({ platformId, ticketId: tenant.ids.tickets!.t1!.id }),
  };
});

/** The platform guard (platform-level access, permissions, the key's own platformId) on every platform endpoint. */
describe('platform API access', () => {
  test('refuses a key without platform-level access on every platform endpoint (403 forbidden)', async ({
    acme,
    calls,
  }) => {
    for (const [name, call] of Object.entries(calls(acme, acme.memberKey))) {
      const failure = await expectForbidden(call(), /platform-level access/);
      expect(failure.message, name).toBeTruthy();
    }
  });

  test('refuses id/list to a platform key without a platform permission, and allows it the others', async ({
    acme,
    calls,
  }) => {
    const auditor = calls(acme, acme.auditorKey);
    await expectForbidden(auditor['id/list'](), /platform:view, platform:edit, platform:manage, instance:view/);
    expect((await auditor['subscription/list']()).total).toBe(1);
    expect((await auditor['addon/list']()).total).toBe(1);
    expect((await auditor['users/list']()).pagination.total).toBe(6);
    expect((await auditor['tickets/list']()).data.map((t) => t.id)).toEqual([acme.ids.tickets!.t1!.id]);
    expect((await auditor['tickets/get']()).data.id).toBe(acme.ids.tickets!.t1!.id);
    expect((await auditor['tickets/manage']()).data.id).toBe(acme.ids.tickets!.t1!.id);
    expect((await auditor['addon/manage']()).message).toBe('Addon assigned successfully');
  });

  test('refuses another platform’s platformId with 403, before looking at anything else', async ({
    server,
    acme,
    globex,
    calls,
  }) => {
    const intruder = calls(globex, globex.ownerKey, acme.platformId);
    for (const name of [
      'subscription/list',
      'addon/list',
      'addon/manage',
      'users/list',
      'tickets/list',
      'tickets/get',
      'tickets/manage',
    ] as const) {
      await expectForbiddenForOtherTenant(intruder[name]());
    }
    const viaGet = await server.http.get(`/api/platform/v1/subscription/list?platformId=${acme.platformId}`, {
      headers: { 'X-API-Key': globex.ownerKey },
    });
    expectEnvelopeError(viaGet, 403, 'forbidden');
  });

  test('answers 401 without a key and 400 without platformId', async ({ server, acme }) => {
    expectEnvelopeError(await server.http.post('/api/platform/v1/id/list', {}), 401, 'unauthorized');
    const missing = await server.http.post(
      '/api/platform/v1/subscription/list',
      {},
      { headers: { 'X-API-Key': acme.ownerKey } },
    );
    expectEnvelopeError(missing, 400, 'invalid_request');
    expect(missing.data.message).toMatch(/platformId: is required/);
  });
});
