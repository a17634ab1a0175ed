import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';

describe('workspace automations/list', () => {
  test('lists the channel’s automations with total', async ({ server, acme }) => {
    expect(await server.client(acme.memberKey).workspace.automations.list()).toEqual({
      success: true,
      data: [
        {
          id: expect.any(String),
          name: 'Welcome',
          status: 'active',
          executionCount: 3,
          trigger: null,
          conditions: [],
          actions: [],
          lastRunAt: null,
          createdAt: expect.stringMatching(/^\d{4}-.*Z$/),
        },
      ],
      pagination: { page: 1, limit: 50, total: 1, pages: 1 },
      total: 1,
    });
  });

  test('lists newest first, for the channel asked for', async ({ server, acme }) => {
    await sql(
      server.databaseUrl,
      `insert into automations (channel_id, name, status, execution_count, created_at) values
        ($1, 'Old draft', 'draft', 0, now() - interval '2 days'), ($1, 'Fresh', 'active', 12, now() + interval
          '1 minute')`,
      [acme.secondChannelId],
    );
    const reply = await server.client(acme.ownerKey).workspace.automations.list({ channelId: acme.secondChannelId });
    expect(reply.data.map((a) => [a.name, a.status, a.executionCount])).toEqual([
      ['Fresh', 'active', 12],
      ['Nurture', 'paused', 0],
      ['Old draft', 'draft', 0],
    ]);
    expect(reply.total).toBe(3);
    const drafts = await server.client(acme.ownerKey).workspace.automations.list({
      channelId: acme.secondChannelId,
      status: 'draft',
    });
    expect(drafts.data.map((a) => a.name)).toEqual(['Old draft']);
  });
});
