import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';

describe('workspace custom-fields/list', () => {
  test('lists definitions by displayOrder with options only for select fields', async ({ server, acme }) => {
    expect(await server.client(acme.memberKey).workspace.customFields.list()).toEqual({
      success: true,
      data: [
        { id: expect.any(String), name: 'Age', type: 'number', isRequired: false, options: null, displayOrder: 1 },
        {
          id: expect.any(String),
          name: 'Plan',
          type: 'select',
          isRequired: false,
          options: ['free', 'pro'],
          displayOrder: 2,
        },
      ],
      total: 2,
    });
  });

  test('returns every type; options stay null outside select and are a list for every select', async ({
    server,
    acme,
  }) => {
    await sql(
      server.databaseUrl,
      `insert into custom_fields (channel_id, name, type, is_required, options, display_order) values
        ($1, 'Notes', 'text', true, '["stray"]', 3), ($1, 'Birthday', 'date', false, null, 4),
        ($1, 'Opted in', 'boolean', false, null, 4), ($1, 'Tier', 'select', false, null, 5)`,
      [acme.secondChannelId],
    );
    const reply = await server.client(acme.ownerKey).workspace.customFields.list({ channelId: acme.secondChannelId });
    expect(
      reply.data.map(({ name, type, isRequired, options, displayOrder }) => ({
        name,
        type,
        isRequired,
        options,
        displayOrder,
      })),
    ).toEqual([
      { name: 'Notes', type: 'text', isRequired: true, options: null, displayOrder: 3 },
      { name: 'Birthday', type: 'date', isRequired: false, options: null, displayOrder: 4 },
      { name: 'Opted in', type: 'boolean', isRequired: false, options: null, displayOrder: 4 },
      { name: 'Tier', type: 'select', isRequired: false, options: [], displayOrder: 5 },
    ]);
    expect(reply.total).toBe(4);
  });
});
