import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { runCli } from '../helpers/processes.js';
import { test } from '../helpers/test.js';

const eventsOf = (databaseUrl: string, type: string) =>
  sql<{ payload: { data: Record<string, unknown> } }>(
    databaseUrl,
    'select payload from workspace_events where type = $1 order by created_at, id',
    [type],
  );

describe('pnpm cli sandbox template-status / quality', { timeout: 180_000 }, () => {
  test('play Meta’s template and number webhooks on a sandbox channel: same state, same events', async ({
    server,
    acme,
  }) => {
    const env = { DATABASE_URL: server.databaseUrl };
    const client = server.client(acme.memberKey).workspace;
    const broadcast = await client.broadcasts.manage({
      action: 'create',
      name: 'Paused with its template',
      templateName: 'order_update',
      variables: ['{{contact.name}}', 'A-1'],
      audience: { all: true },
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const paused = await runCli(
      [
        'sandbox',
        'template-status',
        '--channel',
        acme.mainChannelId,
        '--template',
        'order_update',
        '--status',
        'paused',
      ],
      env,
    );
    expect(paused.code, paused.stderr).toBe(0);
    expect(JSON.parse(paused.stdout)).toEqual({
      channelId: acme.mainChannelId,
      template: 'order_update',
      outcome: 'changed',
      pausedBroadcasts: 1,
    });
    const listed = await client.broadcasts.list({ broadcastId: broadcast.data.id });
    expect(listed.data[0]).toMatchObject({ status: 'paused', pausedReason: 'template_paused' });
    const [templateEvent] = await eventsOf(server.databaseUrl, 'template.updated');
    expect(templateEvent!.payload.data).toMatchObject({
      template: { name: 'order_update', status: 'paused' },
      changes: { status: { previous: 'approved', current: 'paused' } },
    });

    const quality = await runCli(
      ['sandbox', 'quality', '--channel', acme.mainChannelId, '--quality', 'yellow', '--limit', 'TIER_1K'],
      env,
    );
    expect(quality.code, quality.stderr).toBe(0);
    expect(JSON.parse(quality.stdout)).toEqual({ channelId: acme.mainChannelId, changed: true });
    const [channelEvent] = await eventsOf(server.databaseUrl, 'channel.updated');
    expect(channelEvent!.payload.data).toMatchObject({
      changes: {
        quality: { previous: 'unknown', current: 'yellow' },
        messagingLimit: { previous: null, current: 'TIER_1K' },
      },
    });
    const channels = await client.channels.list();
    expect(channels.data[0]).toMatchObject({ quality: 'yellow', messagingLimit: 'TIER_1K' });

    const wrong = await runCli(['sandbox', 'quality', '--channel', acme.mainChannelId, '--quality', 'blue'], env);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/--quality must be one of green, yellow, red, unknown/);
  });
});
