import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { createTenant } from '../helpers/fixtures.js';
import { test } from '../helpers/test.js';

describe('workspace labels/list', () => {
  test('lists the channel’s labels with every field, by sortOrder', async ({ server, acme }) => {
    expect(await server.client(acme.memberKey).workspace.labels.list()).toEqual({
      success: true,
      data: [
        {
          id: expect.any(String),
          channelId: acme.mainChannelId,
          name: 'new',
          description: null,
          color: '#22aa55',
          sortOrder: 0,
        },
        {
          id: expect.any(String),
          channelId: acme.mainChannelId,
          name: 'vip',
          description: 'Top customers',
          color: '#ff8800',
          sortOrder: 1,
        },
      ],
      total: 2,
    });
  });

  test('orders equal sortOrders by name', async ({ server, acme }) => {
    await sql(
      server.databaseUrl,
      `insert into labels (channel_id, name, sort_order) values ($1, 'beta', 1), ($1, 'alpha', 1), ($1, 'first', -5)`,
      [acme.secondChannelId],
    );
    const reply = await server.client(acme.ownerKey).workspace.labels.list({ channelId: acme.secondChannelId });
    expect(reply.data.map((l) => `${l.sortOrder}:${l.name}`)).toEqual(['-5:first', '0:lead', '1:alpha', '1:beta']);
    expect(reply.total).toBe(4);
  });

  test('is empty for a channel without labels', async ({ server }) => {
    const bare = await createTenant(server, 'Bare');
    await sql(server.databaseUrl, 'delete from labels where channel_id = $1', [bare.mainChannelId]);
    expect(await server.client(bare.memberKey).workspace.labels.list()).toEqual({ success: true, data: [], total: 0 });
  });
});
