import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { createTenant } from '../helpers/fixtures.js';
import { test as base } from '../helpers/test.js';

/**
 * The search keys of contacts/list (contact_name_prefixes, contact_name_words) are kept by triggers on `contacts`:
 * after any write they must be exactly what the key functions make of the contacts, no key missing (a contact not
 * found) and none left over (a deleted or renamed contact still found).
 */
const DRIFT = `
  (select 'extra name prefix' as drift, channel_id, prefix as key, created_at, contact_id from contact_name_prefixes
   except select 'extra name prefix', c.channel_id, k.prefix collate "C", c.created_at, c.id from contacts c,
     contact_name_prefixes_of(c.name) k(prefix))
  union all
  (select 'missing name prefix', c.channel_id, k.prefix collate "C", c.created_at, c.id from contacts c,
    contact_name_prefixes_of(c.name) k(prefix)
   except select 'missing name prefix', channel_id, prefix, created_at, contact_id from contact_name_prefixes)
  union all
  (select 'extra name word', channel_id, word || '/' || shared, created_at, contact_id from contact_name_words
   except select 'extra name word', c.channel_id, (k.word || '/' || k.shared) collate "C", c.created_at, c.id
     from contacts c, contact_name_word_keys_of(c.name) k)
  union all
  (select 'missing name word', c.channel_id, (k.word || '/' || k.shared) collate "C", c.created_at, c.id
     from contacts c, contact_name_word_keys_of(c.name) k
   except select 'missing name word', channel_id, word || '/' || shared, created_at, contact_id
     from contact_name_words)`;

const test = base
  .extend(
    'drift',
    ({ server }) =>
      () =>
        sql(server.databaseUrl, DRIFT),
  )
  .extend(
    'keyCount',
    ({ server }) =>
      async () =>
        (
          await sql<{ n: number }>(
            server.databaseUrl,
            'select ((select count(*) from contact_name_prefixes) + (select count(*) from ' +
              'contact_name_words))::int as n',
          )
        )[0]!.n,
  )
  .extend(
    'names',
    ({ server, acme }) =>
      async (search: string) =>
        (await server.client(acme.memberKey).workspace.contacts.list({ search })).data.map((c) => c.name),
  );

describe('contacts/list search keys stay exact', () => {
  test('for contacts from the seed loader and from contacts/manage, created and renamed', async ({
    server,
    acme,
    drift,
    names,
  }) => {
    expect(await names('lovelace')).toEqual(['Ada Lovelace']);
    const contacts = server.client(acme.ownerKey).workspace.contacts;
    await contacts.manage({ channelId: acme.mainChannelId, phone: '+1 555 010 7001', name: 'Zelda Fitzgerald' });
    expect(await names('fitz')).toEqual(['Zelda Fitzgerald']);
    await contacts.manage({ channelId: acme.mainChannelId, phone: '15550107001', name: 'Zora Hurston' });
    expect(await names('fitz')).toEqual([]);
    expect(await names('zora h')).toEqual(['Zora Hurston']);
    expect(await names('010 7001')).toEqual(['Zora Hurston']);
    expect(await drift()).toEqual([]);
  });

  test('for bulk SQL: inserts, upserts, updates of name, phone, creation time and id, deletes, rollbacks', async ({
    server,
    acme,
    drift,
    names,
  }) => {
    const channel = acme.mainChannelId;
    const run = (statement: string) => sql(server.databaseUrl, statement, [channel]);
    await run(
      `insert into contacts (channel_id, name, phone) select $1, 'Bulk Person ' || g, (16000000000 + g)::text from ` +
        `generate_series(1, 300) g`,
    );
    await run(
      `insert into contacts (channel_id, name, phone) values ($1, 'Bulk Person 1', '16000000001') on conflict ` +
        `(channel_id, phone) do nothing`,
    );
    await run(`insert into contacts (channel_id, name, phone) values ($1, 'Upserted  Name', '16000000002'), ($1,
      'Fresh Upsert', '16000099999')
               on conflict (channel_id, phone) do update set name = excluded.name`);
    await run(`update contacts set name = 'Renamed ' || name where channel_id = $1 and phone like '160000001%'`);
    await run(`update contacts set phone = '17' || substr(phone, 3) where channel_id = $1 and phone like '160000002%'`);
    await run(
      `update contacts set created_at = created_at - interval '1 day' where channel_id = $1 and phone like ` +
        `'160000000%'`,
    );
    await run(`update contacts set status = 'blocked' where channel_id = $1 and phone like '16%'`);
    await run(`update contacts set id = gen_random_uuid() where channel_id = $1 and phone = '16000000003'`);
    await run(`delete from contacts where channel_id = $1 and phone like '160000003%'`);
    await expect(
      sql(server.databaseUrl, `begin; update contacts set name = 'Ghost' where phone like '16%'; select 1/0; commit;`),
    ).rejects.toThrow(/division by zero/);
    // Words that start alike are one contact, found once, whichever of its words the term reaches.
    await run(`insert into contacts (channel_id, name, phone) values ($1, 'Johan Johansson Johanna', '16100000001'),
      ($1, 'Maximilian-Alexander Featherstonehaugh-Fiennes', '16100000002')`);
    expect(await drift()).toEqual([]);
    for (const term of ['joh', 'johan', 'johans', 'johanna', 'johan johansson j'])
      expect(await names(term)).toEqual(['Johan Johansson Johanna']);
    expect(await names('alexander featherstonehaugh-f')).toEqual(['Maximilian-Alexander Featherstonehaugh-Fiennes']);
    expect(await names('maximilian-alexander featherstonehaugh-x')).toEqual([]);
    expect(await names('upserted name')).toEqual(['Upserted  Name']);
    expect(await names('renamed bulk person 150')).toEqual(['Renamed Bulk Person 150']);
    expect(await names('17000000250')).toEqual(['Bulk Person 250']);
    expect(await names('16000000250')).toEqual([]);
    expect(await names('Bulk Person 300')).toEqual([]);
    expect(await names('ghost')).toEqual([]);
  });

  test('for a deleted channel, and a truncated table', async ({ server, drift, keyCount }) => {
    const doomed = await createTenant(server, 'Doomed');
    const before = await keyCount();
    await sql(server.databaseUrl, 'delete from channels where id = $1', [doomed.mainChannelId]);
    expect(await keyCount()).toBeLessThan(before);
    expect(
      await sql(server.databaseUrl, 'select 1 from contact_name_prefixes where channel_id = $1', [
        doomed.mainChannelId,
      ]),
    ).toEqual([]);
    expect(await drift()).toEqual([]);
    await sql(server.databaseUrl, 'truncate contacts cascade');
    expect(await keyCount()).toBe(0);
  });
});
