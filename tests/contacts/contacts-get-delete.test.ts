import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectEnvelopeError, expectForbiddenForOtherTenant, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { writerKeys } from '../workspace/writers.js';

const notFound = (call: Promise<unknown>) =>
  expectError(call, 404, 'contact_not_found', /^No contact .* in this channel\.$/);

const test = base
  .extend('nextKey', { scope: 'file' }, ({ server, acme }) => writerKeys(server, acme))
  .extend('sb', ({ server, acme }) => server.client(acme.memberKey).workspace.contacts)
  /** A fresh contact in Acme's main channel, to be deleted. */
  .extend(
    'fresh',
    ({ server, nextKey }) =>
      async (phone: string) =>
        (
          await server
            .client(nextKey())
            .workspace.contacts.manage({ phone, name: `Doomed ${phone}`, addLabels: ['vip'] })
        ).data,
  )
  .extend(
    'counts',
    ({ server, acme }) =>
      async () =>
        sql(
          server.databaseUrl,
          `select (select total from channel_contact_counts where channel_id = $1) as counter, (select count(*)::int ` +
            `from contacts where channel_id = $1) as exact`,
          [acme.mainChannelId],
        ),
  );

describe('workspace contacts/get', () => {
  test('finds a contact by typed phone or by id, exactly as contacts/list shows it', async ({ acme, sb }) => {
    const [listed] = (await sb.list({ search: 'Ada' })).data;
    expect(await sb.get({ phone: '+1 (555) 000-0001' })).toEqual({ success: true, data: listed });
    expect(await sb.get({ contactId: acme.ids.contacts!.ada! })).toEqual({ success: true, data: listed });
  });

  test('400 without contactId and phone, with both, or with a malformed one', async ({ acme, sb }) => {
    await expectInvalid(sb.get({} as never), 'phone', 'is required \\(or contactId\\)');
    await expectInvalid(
      sb.get({ contactId: acme.ids.contacts!.ada!, phone: '15550000001' } as never),
      'contactId',
      'cannot be combined with phone',
    );
    await expectInvalid(sb.get({ contactId: 'ada' }), 'contactId', 'must be a UUID');
    await expectInvalid(sb.get({ phone: '12345' }), 'phone', 'must be 8 to 15 digits');
  });

  test('404 contact_not_found for an unknown phone or id, and for a contact of another channel of the key', async ({
    server,
    acme,
    sb,
  }) => {
    await notFound(sb.get({ phone: '15559999999' }));
    await notFound(sb.get({ contactId: '00000000-0000-4000-8000-000000000000' }));
    const owner = server.client(acme.ownerKey).workspace.contacts;
    await notFound(owner.get({ channelId: acme.mainChannelId, contactId: acme.ids.contacts!.linus! }));
    await notFound(owner.get({ channelId: acme.mainChannelId, phone: '358400000006' }));
  });

  test('403 for a contactId of a channel the key cannot use: another tenant’s, or another user’s', async ({
    acme,
    globex,
    server,
    sb,
  }) => {
    await expectForbiddenForOtherTenant(sb.get({ contactId: globex.ids.contacts!.ada! }));
    await expectForbiddenForOtherTenant(
      server
        .client(globex.ownerKey)
        .workspace.contacts.get({ channelId: globex.mainChannelId, contactId: acme.ids.contacts!.ada! }),
    );
    await expectForbiddenForOtherTenant(sb.get({ contactId: acme.ids.contacts!.linus! }));
  });
});

describe('workspace contacts/delete', () => {
  test('deletes the contact and its label assignments, returns it as it was, and keeps the counter exact', async ({
    server,
    sb,
    fresh,
    counts,
    nextKey,
  }) => {
    const before = await counts();
    const doomed = await fresh('15550300001');
    expect(await counts()).toEqual([{ counter: before[0]!.counter + 1, exact: before[0]!.exact + 1 }]);
    const reply = await server.client(nextKey()).workspace.contacts.delete({ contactId: doomed.id });
    expect(reply).toEqual({ success: true, message: 'Contact deleted successfully', data: doomed });
    expect(await counts()).toEqual(before);
    expect(await sql(server.databaseUrl, 'select * from contact_labels where contact_id = $1', [doomed.id])).toEqual(
      [],
    );
    await notFound(sb.get({ contactId: doomed.id }));
  });

  test('the counter stays exact over a mix of creates and deletes, concurrent ones included', async ({
    server,
    fresh,
    counts,
    nextKey,
  }) => {
    const before = await counts();
    const created = await Promise.all(
      ['15550300010', '15550300011', '15550300012', '15550300013', '15550300014'].map(fresh),
    );
    const deletes = await Promise.allSettled(
      [created[0]!, created[0]!, created[1]!, created[2]!].map((c) =>
        server.client(nextKey()).workspace.contacts.delete({ contactId: c.id }),
      ),
    );
    // Two deletes of one contact: exactly one of them deletes it, the other finds nothing.
    expect(deletes.filter((d) => d.status === 'fulfilled')).toHaveLength(3);
    expect(deletes.filter((d) => d.status === 'rejected').map((d) => (d as PromiseRejectedResult).reason.code)).toEqual(
      ['contact_not_found'],
    );
    const [after] = await counts();
    expect(after).toEqual({ counter: before[0]!.counter + 2, exact: before[0]!.exact + 2 });
  });

  test('404 for an unknown contact, one of another channel of the key, or one already deleted', async ({
    server,
    acme,
    fresh,
    nextKey,
  }) => {
    const del = (contactId: string, key = nextKey()) => server.client(key).workspace.contacts.delete({ contactId });
    await notFound(del('00000000-0000-4000-8000-000000000000'));
    const doomed = await fresh('15550300020');
    await del(doomed.id);
    await notFound(del(doomed.id));
    const owner = server.client(acme.ownerKey).workspace.contacts;
    await notFound(owner.delete({ channelId: acme.mainChannelId, contactId: acme.ids.contacts!.linus! }));
    await expectInvalid(del('not-a-uuid'), 'contactId', 'must be a UUID');
    await expectInvalid(server.client(nextKey()).workspace.contacts.delete({} as never), 'contactId', 'is required');
  });

  test('403 for another tenant’s contact or channel, and nothing is deleted', async ({ server, acme, globex }) => {
    const intruder = server.client(globex.memberKey).workspace.contacts;
    await expectForbiddenForOtherTenant(intruder.delete({ contactId: acme.ids.contacts!.alan! }));
    await expectForbiddenForOtherTenant(
      intruder.delete({ channelId: acme.mainChannelId, contactId: acme.ids.contacts!.alan! }),
    );
    await expectForbiddenForOtherTenant(
      server.client(acme.memberKey).workspace.contacts.delete({ contactId: acme.ids.contacts!.linus! }),
    );
    expect(
      await sql(server.databaseUrl, 'select id from contacts where id = any($1)', [
        [acme.ids.contacts!.alan, acme.ids.contacts!.linus],
      ]),
    ).toHaveLength(2);
  });

  test('follows the channel rules', async ({ server, acme, fresh }) => {
    const doomed = await fresh('15550300030');
    await expectInvalid(
      server.client(acme.ownerKey).workspace.contacts.delete({ contactId: doomed.id }),
      'channelId',
      'is required: this key is authorized for 2 channels',
    );
    await expectError(
      server.client(acme.lonelyKey).workspace.contacts.delete({ contactId: doomed.id }),
      404,
      'no_channel',
    );
    const reply = await server
      .client(acme.ownerKey)
      .workspace.contacts.delete({ channelId: acme.mainChannelId, contactId: doomed.id });
    expect(reply.data.id).toBe(doomed.id);
  });

  test('GET deletes as POST does; class api_write', async ({ server, fresh, nextKey }) => {
    const [viaPost, viaGet] = [await fresh('15550300040'), await fresh('15550300041')];
    const headers = { 'X-API-Key': nextKey() };
    const post = await server.http.post('/api/workspace/v1/contacts/delete', { contactId: viaPost.id }, { headers });
    const get = await server.http.get(`/api/workspace/v1/contacts/delete?contactId=${viaGet.id}`, { headers });
    expect(post.data).toEqual({ success: true, message: 'Contact deleted successfully', data: viaPost });
    expect(get.data).toEqual({ success: true, message: 'Contact deleted successfully', data: viaGet });
    expect(get.headers['ratelimit-policy']).toBe('30;w=60');
    expectEnvelopeError(
      await server.http.get(`/api/workspace/v1/contacts/delete?contactId=${viaGet.id}`, { headers }),
      404,
      'contact_not_found',
    );
  });
});
