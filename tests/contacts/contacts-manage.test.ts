import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import type { TestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';
import { writerKeys } from '../workspace/writers.js';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

type ManageParams = Parameters<ReturnType<TestServer['client']>['workspace']['contacts']['manage']>[0];

const test = base
  .extend('nextKey', { scope: 'file' }, ({ server, acme }) => writerKeys(server, acme))
  .extend(
    'manage',
    ({ server, nextKey }) =>
      (params: ManageParams, key = nextKey()) =>
        server.client(key).workspace.contacts.manage(params),
  )
  .extend(
    'rows',
    ({ server, acme }) =>
      (phone: string) =>
        sql(server.databaseUrl, 'select id, name, email, status from contacts where channel_id = $1 and phone = $2', [
          acme.mainChannelId,
          phone,
        ]),
  )
  .extend(
    'counter',
    ({ server, acme }) =>
      async () =>
        (
          await sql<{ total: number }>(
            server.databaseUrl,
            'select total from channel_contact_counts where channel_id = $1',
            [acme.mainChannelId],
          )
        )[0]!.total,
  )
  .extend(
    'exactCount',
    ({ server, acme }) =>
      async () =>
        (
          await sql<{ n: number }>(
            server.databaseUrl,
            'select count(*)::int as n from contacts where channel_id = $1',
            [acme.mainChannelId],
          )
        )[0]!.n,
  );

describe('workspace contacts/manage', () => {
  test('creates a contact from a typed phone number and answers as contacts/list shows it', async ({
    server,
    acme,
    manage,
    counter,
  }) => {
    const before = await counter();
    const reply = await manage({ phone: '+1 (555) 010-0001', name: '  Hedy Lamarr ', email: 'hedy@example.com' });
    expect(reply).toEqual({
      success: true,
      message: 'Contact created successfully',
      data: {
        id: expect.any(String),
        name: 'Hedy Lamarr',
        phone: '15550100001',
        email: 'hedy@example.com',
        labels: [],
        status: 'active',
        customFields: {},
        createdAt: ISO,
        updatedAt: ISO,
      },
    });
    const listed = await server.client(acme.memberKey).workspace.contacts.list({ search: 'Hedy' });
    expect(listed.data).toEqual([reply.data]);
    expect(await counter()).toBe(before + 1);
  });

  test('updates by phone: given fields change, the others keep their value, null clears the email', async ({
    acme,
    manage,
    rows,
  }) => {
    const first = await manage({ phone: '15550000001', name: 'Ada King', status: 'blocked' });
    expect(first.message).toBe('Contact updated successfully');
    expect(first.data).toMatchObject({
      id: acme.ids.contacts!.ada,
      name: 'Ada King',
      email: 'ada@example.com',
      status: 'blocked',
      customFields: { Age: 36, Plan: 'pro' },
    });
    expect(first.data.labels.map((l) => l.name)).toEqual(['vip']);
    const second = await manage({ phone: '1-555-000-0001', email: null });
    expect(second.data).toMatchObject({ name: 'Ada King', email: null, status: 'blocked' });
    expect(second.data.updatedAt >= first.data.updatedAt).toBe(true);
    expect(second.data.createdAt).toBe(first.data.createdAt);
    expect(await rows('15550000001')).toEqual([
      { id: acme.ids.contacts!.ada, name: 'Ada King', email: null, status: 'blocked' },
    ]);
  });

  test('needs a name to create, not to update', async ({ manage, rows }) => {
    await expectInvalid(manage({ phone: '15550100002' }), 'name', 'is required to create a contact');
    expect(await rows('15550100002')).toEqual([]);
    expect((await manage({ phone: '15550000002', status: 'unsubscribed' })).data).toMatchObject({
      name: 'Grace Hopper',
      status: 'unsubscribed',
    });
  });

  test('400 naming the field for a bad phone, name, email, status or option', async ({
    server,
    manage,
    nextKey,
    rows,
  }) => {
    await expectInvalid(manage({ name: 'No phone' } as never), 'phone', 'is required');
    for (const phone of ['1555000', '1234567890123456', '+1 555 CALL NOW', '']) {
      await expectInvalid(manage({ phone, name: 'Bad phone' }), 'phone', 'must be 8 to 15 digits with country code');
    }
    await expectInvalid(manage({ phone: '15550100003', name: '   ' }), 'name', 'must not be empty');
    await expectInvalid(manage({ phone: '15550100003', name: 'x'.repeat(201) }), 'name', 'at most 200 characters');
    await expectInvalid(
      manage({ phone: '15550100003', name: 'Eve', email: 'not-an-email' }),
      'email',
      'must be an email address',
    );
    await expectInvalid(
      manage({ phone: '15550100003', name: 'Eve', status: 'deleted' as never }),
      'status',
      'must be one of active, blocked, unsubscribed',
    );
    await expectInvalid(
      manage({ phone: '15550100003', name: 'Eve', createMissingLabels: 'yes' as never }),
      'createMissingLabels',
      'must be a boolean',
    );
    await expectInvalid(
      manage({ phone: '15550100003', name: 'Eve', customFields: ['Age'] as never }),
      'customFields',
      'must be an object',
    );
    await expectInvalid(
      manage({ phone: '15550100003', name: 'Eve', customFields: { Age: [1] } as never }),
      'customFields.Age',
      'must be a string, number, boolean or null',
    );
    await expectInvalid(manage({ phone: '15550100003', name: 'Eve', labels: [''] }), 'labels.0', 'must not be empty');
    const get = await server.http.get('/api/workspace/v1/contacts/manage?phone=15550100003&name=Eve&customFields=Age', {
      headers: { 'X-API-Key': nextKey() },
    });
    expect(get.status).toBe(400);
    expect(get.data.message).toMatch(/^customFields: must be an object/);
    // One 400 names every bad field at once.
    const failure = await expectError(
      manage({ phone: '15550100003', customFields: { Nope: 1 }, addLabels: ['nope'] }),
      400,
      'invalid_request',
    );
    expect(failure.message).toMatch(/name: .*customFields\.Nope: .*addLabels\.0: /);
    expect(await rows('15550100003')).toEqual([]);
  });

  test('labels: replace the set, add, remove, by name', async ({ manage }) => {
    const phone = '15550100010';
    const names = (reply: Awaited<ReturnType<typeof manage>>) => reply.data.labels.map((l) => l.name);
    expect(names(await manage({ phone, name: 'Label Test', labels: ['vip', 'new'] }))).toEqual(['new', 'vip']);
    expect(names(await manage({ phone, labels: ['vip'] }))).toEqual(['vip']);
    expect(names(await manage({ phone, addLabels: ['new', 'vip'] }))).toEqual(['new', 'vip']);
    expect(names(await manage({ phone, removeLabels: ['vip'] }))).toEqual(['new']);
    expect(names(await manage({ phone, addLabels: ['vip'], removeLabels: ['new'] }))).toEqual(['vip']);
    expect(names(await manage({ phone, labels: [] }))).toEqual([]);
  });

  test('labels: unknown names are refused, or created with createMissingLabels', async ({ server, acme, manage }) => {
    const phone = '15550100011';
    await manage({ phone, name: 'Label Test 2', labels: ['vip'] });
    await expectInvalid(
      manage({ phone, addLabels: ['vip', 'gold'] }),
      'addLabels.1',
      'no label named "gold" in this channel',
    );
    await expectInvalid(manage({ phone, labels: ['gold'] }), 'labels.0', 'no label named "gold"');
    await expectInvalid(
      manage({ phone, removeLabels: ['gold'], createMissingLabels: true }),
      'removeLabels.0',
      'no label named "gold"',
    );
    // The second channel's label is not this channel's.
    await expectInvalid(manage({ phone, addLabels: ['lead'] }), 'addLabels.0', 'no label named "lead"');
    const created = await manage({ phone, addLabels: ['gold', 'silver'], createMissingLabels: true });
    expect(created.data.labels.map((l) => [l.name, l.color])).toEqual([
      ['gold', null],
      ['silver', null],
      ['vip', '#ff8800'],
    ]);
    const labels = await server.client(acme.memberKey).workspace.labels.list();
    expect(labels.data.filter((l) => ['gold', 'silver'].includes(l.name))).toEqual([
      {
        id: expect.any(String),
        channelId: acme.mainChannelId,
        name: 'gold',
        description: null,
        color: null,
        sortOrder: 0,
      },
      {
        id: expect.any(String),
        channelId: acme.mainChannelId,
        name: 'silver',
        description: null,
        color: null,
        sortOrder: 0,
      },
    ]);
  });

  test('labels: refuses labels with addLabels or removeLabels, and a name both added and removed', async ({
    manage,
  }) => {
    const phone = '15550000002';
    await expectInvalid(
      manage({ phone, labels: ['vip'], addLabels: ['new'] }),
      'addLabels',
      'cannot be combined with labels',
    );
    await expectInvalid(
      manage({ phone, labels: ['vip'], removeLabels: ['new'] }),
      'removeLabels',
      'cannot be combined with labels',
    );
    await expectInvalid(
      manage({ phone, addLabels: ['vip'], removeLabels: ['vip'] }),
      'removeLabels',
      '"vip" is also in addLabels',
    );
  });

  test('a refused request writes nothing, not even the labels it would have created', async ({
    server,
    acme,
    manage,
  }) => {
    await expectInvalid(
      manage({ phone: '15550100012', addLabels: ['bronze'], createMissingLabels: true }),
      'name',
      'is required',
    );
    expect(
      await sql(server.databaseUrl, `select * from labels where channel_id = $1 and name = 'bronze'`, [
        acme.mainChannelId,
      ]),
    ).toEqual([]);
  });

  test('concurrent upserts of one new phone meet on one contact; the counter stays exact', async ({
    server,
    acme,
    manage,
    rows,
    counter,
    exactCount,
  }) => {
    const before = await counter();
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        manage({ phone: '15550100020', name: `Racer ${i}`, addLabels: [i % 2 ? 'vip' : 'new'] }),
      ),
    );
    expect(replies.filter((r) => r.message === 'Contact created successfully')).toHaveLength(1);
    expect(replies.filter((r) => r.message === 'Contact updated successfully')).toHaveLength(7);
    expect(new Set(replies.map((r) => r.data.id)).size).toBe(1);
    const found = await rows('15550100020');
    expect(found).toHaveLength(1);
    expect(replies.map((r) => r.data.name)).toContain(found[0]!.name);
    // Every request added its label under the row lock: both ended up on the contact.
    const final = await server.client(acme.memberKey).workspace.contacts.get({ phone: '15550100020' });
    expect(final.data.labels.map((l) => l.name)).toEqual(['new', 'vip']);
    expect(await counter()).toBe(before + 1);
    expect(await counter()).toBe(await exactCount());
  });

  test('GET carries customFields as JSON text and a list as a key given once or repeated', async ({
    server,
    nextKey,
  }) => {
    const customFields = encodeURIComponent('{"Age":41,"Plan":"free"}');
    const query = `phone=15550100030&name=Via%20Get&customFields=${customFields}&labels=vip&labels=new`;
    const reply = await server.http.get(`/api/workspace/v1/contacts/manage?${query}`, {
      headers: { 'X-API-Key': nextKey() },
    });
    expect(reply.status).toBe(200);
    expect(reply.data).toMatchObject({
      message: 'Contact created successfully',
      data: { name: 'Via Get', customFields: { Age: 41, Plan: 'free' } },
    });
    expect(reply.data.data.labels.map((l: { name: string }) => l.name)).toEqual(['new', 'vip']);
    const once = await server.http.get('/api/workspace/v1/contacts/manage?phone=15550100030&removeLabels=vip', {
      headers: { 'X-API-Key': nextKey() },
    });
    expect(once.data.data.labels.map((l: { name: string }) => l.name)).toEqual(['new']);
  });

  test('rate class api_write', async ({ server, nextKey }) => {
    const reply = await server.http.post(
      '/api/workspace/v1/contacts/manage',
      { phone: '15550000002' },
      { headers: { 'X-API-Key': nextKey() } },
    );
    expect(reply.status).toBe(200);
    expect(reply.headers['ratelimit-policy']).toBe('30;w=60');
  });
});
