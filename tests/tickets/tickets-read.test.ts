import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectForbiddenForOtherTenant, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { operatorKeys } from '../helpers/operators.js';

const SECRET_NOTE = 'Internal: customer is on the watch list';

const test = base
  .extend('nextKey', { scope: 'file' }, ({ server, acme }) => operatorKeys(server, acme.platformId))
  .extend('sb', ({ server, acme }) => server.client(acme.ownerKey).platform.tickets)
  .extend(
    'manage',
    ({ server, acme, nextKey }) =>
      (params: Record<string, unknown>) =>
        server.client(nextKey()).platform.tickets.manage({ platformId: acme.platformId, ...params } as never),
  )
  /** Tickets written in `beforeAll`, by title. */
  .extend('written', { scope: 'file' }, async ({ server, acme }) => {
    const manage = (params: Record<string, unknown>) =>
      server.client(acme.ownerKey).platform.tickets.manage({ platformId: acme.platformId, ...params } as never);
    const adminId = acme.ids.users!.admin!.id;
    const a = await manage({
      email: 'pat@customer.example',
      title: 'A: printer',
      description: 'Jammed',
      priority: 'low',
    });
    const b = await manage({
      email: 'kim@customer.example',
      title: 'B: invoice',
      description: 'Wrong total',
      priority: 'urgent',
      assignedToId: adminId,
    });
    const c = await manage({
      email: 'PAT@customer.example',
      title: 'C: refund',
      description: 'Please',
      message: 'Any news?',
      senderRole: 'admin',
    });
    await manage({ ticketId: c.data.id, message: SECRET_NOTE, isInternal: true });
    await manage({ ticketId: a.data.id, status: 'closed' });
    // Spread the update times so the order is known: A newest, then C, B, then the seeded ticket.
    const order = [a.data.id, c.data.id, b.data.id, acme.ids.tickets!.t1!.id];
    await sql(
      server.databaseUrl,
      `update tickets set updated_at = now() - array_position($1::uuid[], id) * interval '1 hour' where id = any($1)`,
      [order],
    );
    return { a: a.data, b: b.data, c: c.data, order, adminId };
  });

describe('platform tickets/list', () => {
  test('lists the platform’s tickets, most recently updated first, without their threads', async ({
    acme,
    sb,
    written,
  }) => {
    const reply = await sb.list({ platformId: acme.platformId });
    expect(reply.pagination).toEqual({ page: 1, limit: 50, total: 4, pages: 1 });
    expect(reply.data.map((t) => t.id)).toEqual(written.order);
    const { messages: _thread, updatedAt: _updated, ...summary } = written.b;
    expect(reply.data[2]).toEqual({ ...summary, updatedAt: expect.any(String) });
    expect(reply.data.every((t) => !('messages' in t))).toBe(true);
    expect(JSON.stringify(reply)).not.toContain(SECRET_NOTE);
  });

  test('filters by status, priority, assignee, owner email and update time; filters combine', async ({
    acme,
    sb,
    written,
  }) => {
    const ids = async (filters: Record<string, unknown>) =>
      (await sb.list({ platformId: acme.platformId, ...filters })).data.map((t) => t.id);
    expect(await ids({ status: 'closed' })).toEqual([written.a.id]);
    expect(await ids({ priority: 'urgent' })).toEqual([written.b.id]);
    expect(await ids({ assignedToId: written.adminId })).toEqual([written.b.id]);
    expect(await ids({ email: 'Pat@Customer.Example' })).toEqual([written.a.id, written.c.id]);
    expect(await ids({ email: 'pat@customer.example', status: 'open' })).toEqual([written.c.id]);
    const since = new Date(Date.now() - 150 * 60_000).toISOString();
    expect(await ids({ updatedSince: since })).toEqual([written.a.id, written.c.id]);
    expect(await ids({ updatedSince: since.replace('Z', '+00:00') })).toEqual([written.a.id, written.c.id]);
    expect(await ids({ assignedToId: '00000000-0000-4000-8000-000000000000' })).toEqual([]);
  });

  test('pages with page and limit', async ({ acme, sb, written }) => {
    const page = await sb.list({ platformId: acme.platformId, page: 2, limit: 3 });
    expect(page.pagination).toEqual({ page: 2, limit: 3, total: 4, pages: 2 });
    expect(page.data.map((t) => t.id)).toEqual(written.order.slice(3));
    expect((await sb.list({ platformId: acme.platformId, limit: 200 })).data).toHaveLength(4);
  });

  test('400 naming the field for a bad filter or page', async ({ acme, sb }) => {
    const platformId = acme.platformId;
    await expectInvalid(sb.list({ platformId, limit: 201 }), 'limit', 'must be at most 200');
    await expectInvalid(
      sb.list({ platformId, status: 'done' as never }),
      'status',
      'must be one of open, in_progress, resolved, closed',
    );
    await expectInvalid(
      sb.list({ platformId, priority: 'p1' as never }),
      'priority',
      'must be one of low, medium, high, urgent',
    );
    await expectInvalid(sb.list({ platformId, assignedToId: 'admin' }), 'assignedToId', 'or `me`');
    await expectInvalid(sb.list({ platformId, updatedSince: 'yesterday' }), 'updatedSince', 'must be an ISO 8601 time');
    await expectInvalid(
      sb.list({ platformId, updatedSince: '2026-01-31' }),
      'updatedSince',
      'must be an ISO 8601 time',
    );
    await expectInvalid(
      sb.list({ platformId, updatedSince: '2026-01-31T09:00:00+99:99' }),
      'updatedSince',
      'must be an ISO 8601 time',
    );
  });

  test('another platform sees only its own tickets', async ({ server, globex }) => {
    const reply = await server.client(globex.ownerKey).platform.tickets.list({ platformId: globex.platformId });
    expect(reply.data.map((t) => t.id)).toEqual([globex.ids.tickets!.t1!.id]);
  });

  test('GET = POST; class api_read', async ({ server, acme, written }) => {
    const headers = { 'X-API-Key': acme.ownerKey };
    const post = await server.http.post(
      '/api/platform/v1/tickets/list',
      { platformId: acme.platformId, status: 'open', limit: 2 },
      { headers },
    );
    const get = await server.http.get(
      `/api/platform/v1/tickets/list?platformId=${acme.platformId}&status=open&limit=2`,
      { headers },
    );
    expect(get.status).toBe(200);
    expect(get.data).toEqual(post.data);
    expect(get.data.data.map((t: { id: string }) => t.id)).toEqual([written.c.id, written.b.id]);
    expect(get.headers['ratelimit-policy']).toBe('120;w=60');
  });
});

describe('platform tickets/get', () => {
  test('gives the whole ticket with its thread, internal notes included, by UUID or shortId', async ({
    acme,
    sb,
    written,
  }) => {
    const reply = await sb.get({ platformId: acme.platformId, ticketId: written.c.id });
    expect(reply.data.messages.map((m) => [m.message, m.isInternal])).toEqual([
      ['Any news?', false],
      [SECRET_NOTE, true],
    ]);
    expect(reply.data).toMatchObject({
      id: written.c.id,
      shortId: written.c.shortId,
      title: 'C: refund',
      owner: written.c.owner,
    });
    expect(await sb.get({ platformId: acme.platformId, ticketId: written.c.shortId.toLowerCase() })).toEqual(reply);
  });

  test('answers what tickets/manage answered', async ({ acme, sb, manage, written }) => {
    const updated = await manage({ ticketId: written.b.shortId, priority: 'high', message: 'Looking into it' });
    expect((await sb.get({ platformId: acme.platformId, ticketId: written.b.id })).data).toEqual(updated.data);
  });

  test('404 ticket_not_found for an unknown ticket or another platform’s; 403 for another platformId', async ({
    acme,
    globex,
    sb,
  }) => {
    const platformId = acme.platformId;
    await expectError(
      sb.get({ platformId, ticketId: '00000000-0000-4000-8000-000000000000' }),
      404,
      'ticket_not_found',
    );
    await expectError(sb.get({ platformId, ticketId: 'TK-NOPE' }), 404, 'ticket_not_found');
    await expectError(sb.get({ platformId, ticketId: globex.ids.tickets!.t1!.id }), 404, 'ticket_not_found');
    await expectError(sb.get({ platformId, ticketId: globex.ids.tickets!.t1!.shortId }), 404, 'ticket_not_found');
    await expectForbiddenForOtherTenant(
      sb.get({ platformId: globex.platformId, ticketId: globex.ids.tickets!.t1!.id }),
    );
    await expectInvalid(sb.get({ platformId, ticketId: '' }), 'ticketId', 'must not be empty');
    await expectInvalid(sb.get({ platformId } as never), 'ticketId', 'is required');
  });

  test('GET = POST; class api_read', async ({ server, acme, written }) => {
    const headers = { 'X-API-Key': acme.ownerKey };
    const post = await server.http.post(
      '/api/platform/v1/tickets/get',
      { platformId: acme.platformId, ticketId: written.a.shortId },
      { headers },
    );
    const get = await server.http.get(
      `/api/platform/v1/tickets/get?platformId=${acme.platformId}&ticketId=${written.a.shortId}`,
      { headers },
    );
    expect(get.status).toBe(200);
    expect(get.data).toEqual(post.data);
    expect(get.data.data.status).toBe('closed');
    expect(get.headers['ratelimit-policy']).toBe('120;w=60');
  });
});
