import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { createTenant } from '../helpers/fixtures.js';
import { test as base } from '../helpers/test.js';

const test = base
  .extend(
    'total',
    ({ server, acme }) =>
      async (channelId = acme.mainChannelId) =>
        (await server.client(acme.ownerKey).workspace.contacts.list({ channelId, limit: 1 })).pagination.total,
  )
  .extend(
    'insert',
    ({ acme }) =>
      (count: number, from: number, channelId = acme.mainChannelId) =>
        `insert into contacts (channel_id, name, phone) select '${channelId}', 'Bulk ' || g, (17000000000 + g)::text ` +
        `from generate_series(${from}, ${from + count - 1}) g`,
  );

/**
 * contacts/list's unfiltered `total` comes from a trigger-maintained counter: it must stay exact on every write path.
 */
describe('contacts/list total stays exact', () => {
  test('counts contacts written by the seed loader and by bulk SQL', async ({ server, acme, total, insert }) => {
    expect(await total()).toBe(3);
    expect(await total(acme.secondChannelId)).toBe(1);
    await sql(server.databaseUrl, insert(250, 1));
    expect(await total()).toBe(253);
    expect(await total(acme.secondChannelId)).toBe(1);
  });

  test('follows deletes, and ignores writes that roll back', async ({ server, acme, total, insert }) => {
    await sql(server.databaseUrl, `delete from contacts where channel_id = $1 and name like 'Bulk 1%'`, [
      acme.mainChannelId,
    ]);
    expect(await total()).toBe(253 - 111);
    await expect(sql(server.databaseUrl, `begin; ${insert(10, 1000)}; select 1/0; commit;`)).rejects.toThrow(
      /division by zero/,
    );
    expect(await total()).toBe(142);
  });

  test('refuses to move a contact to another channel, which would make both counts wrong', async ({
    server,
    acme,
    total,
  }) => {
    await expect(
      sql(server.databaseUrl, `update contacts set channel_id = $1 where channel_id = $2`, [
        acme.secondChannelId,
        acme.mainChannelId,
      ]),
    ).rejects.toThrow(/cannot move to another channel/);
    await sql(server.databaseUrl, `update contacts set name = name || '!' where channel_id = $1`, [acme.mainChannelId]);
    expect([await total(), await total(acme.secondChannelId)]).toEqual([142, 1]);
  });

  test('drops the counter with its channel, and resets on truncate', async ({ server, acme, total, insert }) => {
    const doomed = await createTenant(server, 'Doomed');
    await sql(server.databaseUrl, 'delete from channels where id = $1', [doomed.mainChannelId]);
    expect(
      await sql(server.databaseUrl, 'select * from channel_contact_counts where channel_id = $1', [
        doomed.mainChannelId,
      ]),
    ).toEqual([]);
    await sql(server.databaseUrl, 'truncate contacts cascade');
    expect([await total(), await total(acme.secondChannelId)]).toEqual([0, 0]);
    await sql(server.databaseUrl, insert(3, 1));
    expect(await total()).toBe(3);
  });
});
