import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectInvalid } from '../helpers/expect.js';
import { createTenant } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

type ListParams = Parameters<ReturnType<TestServer['client']>['workspace']['contacts']['list']>[0];

const test = base
  .extend(
    'list',
    ({ server, acme }) =>
      (params?: ListParams) =>
        server.client(acme.memberKey).workspace.contacts.list(params),
  )
  .extend(
    'names',
    ({ list }) =>
      async (search: string) =>
        (await list({ search })).data.map((c) => c.name),
  );

describe('workspace contacts/list', () => {
  // Seeded contacts share a creation instant; spread them so the order is known: Ada newest, then Grace, Alan.
  // (Asking for acme seeds Acme before the update.)
  test.beforeAll(async ({ server, acme: _seeded }) => {
    await sql(
      server.databaseUrl,
      `update contacts set created_at = now() - (case name when 'Ada Lovelace' then 1 when 'Grace Hopper' then 2 ` +
        `else 3 end) * interval '1 hour'`,
    );
  });

  test('returns the channel’s contacts, newest first, with labels and custom fields inline', async ({ acme, list }) => {
    const reply = await list();
    expect(reply).toEqual({
      success: true,
      data: [
        {
          id: acme.ids.contacts!.ada,
          name: 'Ada Lovelace',
          phone: '15550000001',
          email: 'ada@example.com',
          labels: [{ id: expect.any(String), name: 'vip', color: '#ff8800' }],
          status: 'active',
          customFields: { Age: 36, Plan: 'pro' },
          createdAt: ISO,
          updatedAt: ISO,
        },
        expect.objectContaining({
          id: acme.ids.contacts!.grace,
          email: null,
          // Labels in their own order: sortOrder 0 ("new") before 1 ("vip").
          labels: [
            expect.objectContaining({ name: 'new', color: '#22aa55' }),
            expect.objectContaining({ name: 'vip' }),
          ],
          customFields: {},
        }),
        expect.objectContaining({ id: acme.ids.contacts!.alan, phone: '447700900003', labels: [] }),
      ],
      pagination: { page: 1, limit: 50, total: 3, pages: 1 },
    });
  });

  test('breaks creation-time ties by id, newest id first, so pages never overlap', async ({ server }) => {
    const tenant = await createTenant(server, 'Ties');
    await sql(server.databaseUrl, `update contacts set created_at = '2026-01-01T00:00:00Z' where channel_id = $1`, [
      tenant.mainChannelId,
    ]);
    const client = server.client(tenant.memberKey).workspace.contacts;
    const all = (await client.list()).data.map((c) => c.id);
    expect(all).toEqual([...all].sort().reverse());
    const pages = await Promise.all([1, 2, 3].map((page) => client.list({ page, limit: 1 })));
    expect(pages.map((p) => p.data[0]!.id)).toEqual(all);
  });

  test('paginates, and a page past the end is empty with correct pagination', async ({ list }) => {
    expect(await list({ page: 2, limit: 2 })).toMatchObject({
      data: [{ name: 'Alan Turing' }],
      pagination: { page: 2, limit: 2, total: 3, pages: 2 },
    });
    expect(await list({ page: 9, limit: 2 })).toEqual({
      success: true,
      data: [],
      pagination: { page: 9, limit: 2, total: 3, pages: 2 },
    });
  });

  test('searches names case-insensitively by word start', async ({ names }) => {
    expect(await names('LOVE')).toEqual(['Ada Lovelace']);
    expect(await names('  hopper ')).toEqual(['Grace Hopper']);
    expect(await names('a')).toEqual(['Ada Lovelace', 'Alan Turing']);
    expect(await names('Al')).toEqual(['Alan Turing']);
    // Not from the middle of a word ("Grace", "Lovelace").
    expect(await names('ace')).toEqual([]);
    expect(await names('Linus')).toEqual([]);
  });

  test('searches phones ignoring +, spaces, dashes and parentheses', async ({ names }) => {
    expect(await names('+1 555-000-0002')).toEqual(['Grace Hopper']);
    expect(await names('(44) 7700 900')).toEqual(['Alan Turing']);
    expect(await names('55500')).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(await names('03')).toEqual(['Alan Turing']);
  });

  test('takes %, _ and \\ in a search literally', async ({ server }) => {
    const tenant = await createTenant(server, 'Odd');
    await sql(
      server.databaseUrl,
      `insert into contacts (channel_id, name, phone)
       values ($1, '100% Sure', '15551230001'), ($1, 'Room 1000', '15551230002'), ($1, 'snake_case', '15551230003'),
              ($1, 'snakeXcase', '15551230004'), ($1, 'back\\slash', '15551230005')`,
      [tenant.mainChannelId],
    );
    const search = async (term: string) =>
      (await server.client(tenant.memberKey).workspace.contacts.list({ search: term })).data.map((c) => c.name);
    // No LIKE anywhere: %, _ and \ are characters like any other, and punctuation starts a new word.
    expect(await search('100%')).toEqual(['100% Sure']);
    expect(await search('snake_c')).toEqual(['snake_case']);
    expect(await search('case')).toEqual(['snake_case']);
    expect(await search('back\\s')).toEqual(['back\\slash']);
    expect(await search('slash')).toEqual(['back\\slash']);
    // Not from the middle of a word, so a lone wildcard matches nothing.
    for (const term of ['%', '_', '0% s', 'ake_c', 'k\\s']) expect(await search(term)).toEqual([]);
    expect(await search('%%%')).toEqual([]);
  });

  test('counts search matches exactly, also when a page is full', async ({ list }) => {
    // Every phone has a 0.
    expect((await list({ search: '0', limit: 2 })).pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    expect((await list({ search: '0', page: 3, limit: 2 })).pagination).toEqual({
      page: 3,
      limit: 2,
      total: 3,
      pages: 2,
    });
    expect((await list({ search: 'zzz' })).pagination).toEqual({ page: 1, limit: 50, total: 0, pages: 0 });
    // An empty search is no search.
    expect((await list({ search: '' })).pagination.total).toBe(3);
  });

  test('caps the count of a very broad search at 1,000 and says so through total, not through a slow count', async ({
    server,
  }) => {
    const big = await createTenant(server, 'Big');
    await sql(
      server.databaseUrl,
      `insert into contacts (channel_id, name, phone, created_at) select $1, 'Bulk ' || g, (16000000000 + g)::text, ` +
        `now() - g * interval '1 second' from generate_series(1, 1050) g`,
      [big.mainChannelId],
    );
    const contacts = server.client(big.memberKey).workspace.contacts;
    expect((await contacts.list({ limit: 1 })).pagination.total).toBe(1053);
    const broad = await contacts.list({ search: 'bulk' });
    expect(broad.pagination).toEqual({ page: 1, limit: 50, total: 1000, pages: 20 });
    // Past the cap the page is still the newest matches, in order.
    expect(broad.data.map((c) => c.name)).toEqual(Array.from({ length: 50 }, (_, i) => `Bulk ${i + 1}`));
    expect((await contacts.list({ search: 'bulk', page: 2, limit: 3 })).data.map((c) => c.name)).toEqual([
      'Bulk 4',
      'Bulk 5',
      'Bulk 6',
    ]);
    // Past the cap the total is at least what the requested page proves exists.
    const deep = await contacts.list({ search: 'bulk', page: 21 });
    expect(deep.data).toHaveLength(50);
    expect(deep.pagination).toEqual({ page: 21, limit: 50, total: 1050, pages: 21 });
    // Under the cap the count is exact, also when the page is full: Bulk 10, 100–109, 1000–1050.
    const under = await contacts.list({ search: 'bulk 10' });
    expect(under.pagination).toEqual({ page: 1, limit: 50, total: 62, pages: 2 });
    expect(under.data[0]!.name).toBe('Bulk 10');
    expect((await contacts.list({ search: 'bulk 10', page: 2 })).data.map((c) => c.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => `Bulk ${1039 + i}`),
    );
  });

  test('400 naming the field for a bad page, limit or search', async ({ server, acme, list }) => {
    await expectInvalid(list({ limit: 0 }), 'limit', 'at least 1');
    await expectInvalid(list({ limit: 201 }), 'limit', 'at most 200');
    await expectInvalid(list({ limit: 2.5 }), 'limit', 'integer');
    await expectInvalid(list({ page: 0 }), 'page', 'at least 1');
    await expectInvalid(list({ page: 10_000_001 }), 'page', 'at most');
    await expectInvalid(list({ search: 'x'.repeat(101) }), 'search', 'at most 100');
    const headers = { 'X-API-Key': acme.memberKey };
    for (const [query, field] of [
      ['limit=abc', 'limit'],
      ['page=abc', 'page'],
      ['limit=', 'limit'],
    ] as const) {
      const reply = await server.http.get(`/api/workspace/v1/contacts/list?${query}`, { headers });
      expect(reply.status).toBe(400);
      expect(reply.data).toMatchObject({
        success: false,
        error: 'invalid_request',
        message: expect.stringMatching(new RegExp(`^${field}: `)),
      });
    }
  });
});
