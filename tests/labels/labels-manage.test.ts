import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectInvalid } from '../helpers/expect.js';
import type { TestServer } from '../helpers/server.js';
import { test as base } from '../helpers/test.js';

type ManageParams = Parameters<ReturnType<TestServer['client']>['workspace']['labels']['manage']>[0];

const test = base
  .extend(
    'manage',
    ({ server, acme }) =>
      (params: ManageParams, apiKey = acme.memberKey) =>
        server.client(apiKey).workspace.labels.manage(params),
  )
  .extend(
    'labelRows',
    ({ server, acme }) =>
      (name: string) =>
        sql(server.databaseUrl, 'select * from labels where channel_id = $1 and name = $2', [acme.mainChannelId, name]),
  );

describe('workspace labels/manage', () => {
  test('creates a label with defaults when the name is new', async ({ acme, manage }) => {
    expect(await manage({ name: 'prospect' })).toEqual({
      success: true,
      message: 'Label created successfully',
      data: {
        id: expect.any(String),
        channelId: acme.mainChannelId,
        name: 'prospect',
        description: null,
        color: null,
        sortOrder: 0,
      },
    });
    const created = await manage({ name: 'partner', description: 'Resellers', color: '#00AAFF', sortOrder: 7 });
    expect(created.data).toMatchObject({ name: 'partner', description: 'Resellers', color: '#00AAFF', sortOrder: 7 });
  });

  test('updates by exact name: given fields change, omitted ones keep their value, null clears', async ({
    acme,
    manage,
    labelRows,
  }) => {
    const [vip] = await labelRows('vip');
    const renamed = await manage({ name: 'vip', color: '#000000' });
    expect(renamed).toEqual({
      success: true,
      message: 'Label updated successfully',
      data: {
        id: vip!.id,
        channelId: acme.mainChannelId,
        name: 'vip',
        description: 'Top customers',
        color: '#000000',
        sortOrder: 1,
      },
    });
    const cleared = await manage({ name: 'vip', description: null, sortOrder: -3 });
    expect(cleared.data).toMatchObject({ id: vip!.id, description: null, color: '#000000', sortOrder: -3 });
    expect((await labelRows('vip'))[0]!.updated_at.getTime()).toBeGreaterThan(vip!.updated_at.getTime());
  });

  test('matches names exactly (case counts) after trimming surrounding spaces', async ({ server, acme, manage }) => {
    expect((await manage({ name: '  new ' })).message).toBe('Label updated successfully');
    const upper = await manage({ name: 'NEW' });
    expect(upper.message).toBe('Label created successfully');
    expect(
      await sql(
        server.databaseUrl,
        `select name from labels where channel_id = $1 and lower(name) = 'new' order by name`,
        [acme.mainChannelId],
      ),
    ).toEqual([{ name: 'NEW' }, { name: 'new' }]);
  });

  test('lets concurrent upserts of one new name create exactly one label', async ({ acme, manage, labelRows }) => {
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => manage({ name: 'race', sortOrder: i }, acme.auditorKey)),
    );
    expect(replies.filter((r) => r.message === 'Label created successfully')).toHaveLength(1);
    expect(replies.filter((r) => r.message === 'Label updated successfully')).toHaveLength(7);
    expect(new Set(replies.map((r) => r.data.id)).size).toBe(1);
    expect(await labelRows('race')).toHaveLength(1);
  });

  test('writes to the channel given, not to others', async ({ acme, manage, labelRows }) => {
    const reply = await manage({ channelId: acme.secondChannelId, name: 'vip', color: '#abcdef' }, acme.ownerKey);
    expect(reply).toMatchObject({
      message: 'Label created successfully',
      data: { channelId: acme.secondChannelId, color: '#abcdef' },
    });
    expect((await labelRows('vip'))[0]!.color).toBe('#000000');
  });

  test('400 naming the field for a missing, empty or long name, a bad color or sortOrder, a long description', async ({
    server,
    acme,
    manage,
    labelRows,
  }) => {
    const key = acme.ownerKey;
    const channelId = acme.mainChannelId;
    await expectInvalid(manage({ channelId } as never, key), 'name', 'is required');
    await expectInvalid(manage({ channelId, name: '   ' }, key), 'name', 'must not be empty');
    await expectInvalid(manage({ channelId, name: 'x'.repeat(101) }, key), 'name', 'at most 100 characters');
    for (const color of ['red', '#12345', '#1234567', '#gggggg', '123456']) {
      await expectInvalid(manage({ channelId, name: 'vip', color }, key), 'color', 'hex color like #ff8800');
    }
    await expectInvalid(manage({ channelId, name: 'vip', sortOrder: 1.5 }, key), 'sortOrder', 'integer');
    await expectInvalid(
      manage({ channelId, name: 'vip', description: 'd'.repeat(501) }, key),
      'description',
      'at most 500',
    );
    const get = await server.http.get(`/api/workspace/v1/labels/manage?channelId=${channelId}&name=vip&sortOrder=abc`, {
      headers: { 'X-API-Key': key },
    });
    expect(get.status).toBe(400);
    expect(get.data.message).toMatch(/^sortOrder: /);
    expect((await labelRows('vip'))[0]).toMatchObject({ color: '#000000', sort_order: -3 });
  });
});
