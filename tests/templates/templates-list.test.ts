import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';

describe('workspace chat/templates/list', () => {
  test('lists only approved templates, with their variable count', async ({ server, acme }) => {
    expect(await server.client(acme.memberKey).workspace.chat.templates.list()).toEqual({
      success: true,
      data: [
        {
          id: acme.ids.templates!.order,
          name: 'order_update',
          category: 'UTILITY',
          language: 'en_US',
          status: 'approved',
          body: 'Hi {{1}}, order {{2}} shipped',
          variableCount: 2,
          header: null,
          footer: null,
          buttons: [],
          rejectedReason: null,
          quality: 'unknown',
        },
      ],
      total: 1,
    });
  });

  test('orders by name then language and hides pending and rejected ones', async ({ server, acme }) => {
    await sql(
      server.databaseUrl,
      `insert into templates (channel_id, name, category, language, status, body, variable_count) values
        ($1, 'follow_up', 'UTILITY', 'de_DE', 'approved', 'Hallo {{1}}', 1), ($1, 'alert', 'AUTHENTICATION', 'en_US',
          'approved', 'Code', 0),
        ($1, 'zeta', 'MARKETING', 'en_US', 'rejected', 'No', 0), ($1, 'beta', 'MARKETING', 'en_US', 'pending', 'Soon',
          0)`,
      [acme.secondChannelId],
    );
    const reply = await server.client(acme.ownerKey).workspace.chat.templates.list({ channelId: acme.secondChannelId });
    expect(reply.data.map((t) => `${t.name}/${t.language}/${t.status}`)).toEqual([
      'alert/en_US/approved',
      'follow_up/de_DE/approved',
      'follow_up/en_US/approved',
    ]);
    expect(reply.total).toBe(3);
    const rejected = await server
      .client(acme.ownerKey)
      .workspace.chat.templates.list({ channelId: acme.secondChannelId, status: 'rejected' });
    expect(rejected.data.map((t) => t.name)).toEqual(['zeta']);
    const all = await server
      .client(acme.ownerKey)
      .workspace.chat.templates.list({ channelId: acme.secondChannelId, status: 'all' });
    expect(all.data.map((t) => `${t.name}/${t.status}`)).toEqual([
      'alert/approved',
      'beta/pending',
      'follow_up/approved',
      'follow_up/approved',
      'zeta/rejected',
    ]);
  });
});
