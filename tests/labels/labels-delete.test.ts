import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectEnvelopeError, expectForbiddenForOtherTenant, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { writerKeys } from '../workspace/writers.js';

const notFound = (call: Promise<unknown>) =>
  expectError(call, 404, 'label_not_found', /^No label .* in this channel\.$/);

const test = base
  .extend('nextKey', { scope: 'file' }, ({ server, acme }) => writerKeys(server, acme))
  .extend(
    'sb',
    ({ server, nextKey }) =>
      () =>
        server.client(nextKey()).workspace.labels,
  )
  /** A fresh label in Acme's main channel, to be deleted. */
  .extend(
    'fresh',
    ({ sb }) =>
      async (name: string) =>
        (await sb().manage({ name, color: '#101010' })).data,
  );

describe('workspace labels/delete', () => {
  test('deletes by name, takes the label off every contact, returns it as it was', async ({ server, acme, sb }) => {
    const [vip] = (await sb().list()).data.filter((l) => l.name === 'vip');
    const reply = await sb().delete({ name: ' vip ' });
    expect(reply).toEqual({ success: true, message: 'Label deleted successfully', data: vip });
    expect((await sb().list()).data.map((l) => l.name)).toEqual(['new']);
    const contacts = await server.client(acme.memberKey).workspace.contacts.list();
    expect(contacts.data.map((c) => [c.name, c.labels.map((l) => l.name)])).toEqual(
      expect.arrayContaining([
        ['Ada Lovelace', []],
        ['Grace Hopper', ['new']],
      ]),
    );
    expect(await sql(server.databaseUrl, 'select * from contact_labels where label_id = $1', [vip!.id])).toEqual([]);
  });

  test('deletes by labelId; of two concurrent deletes one succeeds, the other finds nothing', async ({ sb, fresh }) => {
    const label = await fresh('by-id');
    expect((await sb().delete({ labelId: label.id })).data).toEqual(label);
    await notFound(sb().delete({ labelId: label.id }));
    const raced = await fresh('raced');
    const results = await Promise.allSettled([sb().delete({ name: 'raced' }), sb().delete({ labelId: raced.id })]);
    expect(
      results
        .filter((r) => r.status === 'fulfilled')
        .map((r) => (r as PromiseFulfilledResult<{ data: unknown }>).value.data),
    ).toEqual([raced]);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(
      ['label_not_found'],
    );
  });

  test('404 label_not_found for an unknown name or id, and for a label of another channel of the key', async ({
    server,
    acme,
    sb,
  }) => {
    await notFound(sb().delete({ name: 'no-such-label' }));
    await notFound(sb().delete({ name: 'VIP' }));
    await notFound(sb().delete({ labelId: '00000000-0000-4000-8000-000000000000' }));
    const lead = (
      await sql<{ id: string }>(server.databaseUrl, `select id from labels where channel_id = $1 and name = 'lead'`, [
        acme.secondChannelId,
      ])
    )[0]!;
    const owner = server.client(acme.ownerKey).workspace.labels;
    await notFound(owner.delete({ channelId: acme.mainChannelId, labelId: lead.id }));
    await notFound(owner.delete({ channelId: acme.mainChannelId, name: 'lead' }));
  });

  test('400 without name and labelId, with both, or with bad values', async ({ sb, fresh }) => {
    const label = await fresh('four-hundred');
    await expectInvalid(sb().delete({} as never), 'name', 'is required \\(or labelId\\)');
    await expectInvalid(
      sb().delete({ name: 'four-hundred', labelId: label.id } as never),
      'labelId',
      'cannot be combined with name',
    );
    await expectInvalid(sb().delete({ name: '  ' }), 'name', 'must not be empty');
    await expectInvalid(sb().delete({ labelId: 'vip' }), 'labelId', 'must be a UUID');
    expect((await sb().list()).data.map((l) => l.name)).toContain('four-hundred');
  });

  test('403 for another tenant’s label or channel, or a channel of another user; nothing is deleted', async ({
    server,
    acme,
    globex,
  }) => {
    const labelsOf = (channelId: string) =>
      sql<{ id: string; name: string }>(
        server.databaseUrl,
        'select id, name from labels where channel_id = $1 order by name',
        [channelId],
      );
    const before = await labelsOf(acme.mainChannelId);
    const intruder = server.client(globex.memberKey).workspace.labels;
    await expectForbiddenForOtherTenant(intruder.delete({ labelId: before[0]!.id }));
    await expectForbiddenForOtherTenant(intruder.delete({ channelId: acme.mainChannelId, name: before[0]!.name }));
    const lead = (
      await sql<{ id: string }>(server.databaseUrl, `select id from labels where channel_id = $1`, [
        acme.secondChannelId,
      ])
    )[0]!;
    await expectForbiddenForOtherTenant(server.client(acme.memberKey).workspace.labels.delete({ labelId: lead.id }));
    expect(await labelsOf(acme.mainChannelId)).toEqual(before);
    expect((await labelsOf(globex.mainChannelId)).map((l) => l.name)).toEqual(['new', 'vip']);
  });

  test('follows the channel rules', async ({ server, acme, fresh }) => {
    await fresh('rules');
    await expectInvalid(
      server.client(acme.ownerKey).workspace.labels.delete({ name: 'rules' }),
      'channelId',
      'is required: this key is authorized for 2 channels',
    );
    await expectError(server.client(acme.lonelyKey).workspace.labels.delete({ name: 'rules' }), 404, 'no_channel');
    expect(
      (await server.client(acme.ownerKey).workspace.labels.delete({ channelId: acme.mainChannelId, name: 'rules' }))
        .data.name,
    ).toBe('rules');
  });

  test('GET deletes as POST does; class api_write', async ({ server, fresh, nextKey }) => {
    const [viaPost, viaGet] = [await fresh('via-post'), await fresh('via-get')];
    const headers = { 'X-API-Key': nextKey() };
    const post = await server.http.post('/api/workspace/v1/labels/delete', { name: 'via-post' }, { headers });
    const get = await server.http.get('/api/workspace/v1/labels/delete?name=via-get', { headers });
    expect(post.data).toEqual({ success: true, message: 'Label deleted successfully', data: viaPost });
    expect(get.data).toEqual({ success: true, message: 'Label deleted successfully', data: viaGet });
    expect(get.headers['ratelimit-policy']).toBe('30;w=60');
    expectEnvelopeError(
      await server.http.get('/api/workspace/v1/labels/delete?name=via-get', { headers }),
      404,
      'label_not_found',
    );
  });
});
