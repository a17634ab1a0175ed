import { demoSeed } from '@switchboard/server';
import { describe, expect } from 'vitest';
import { test } from '../helpers/test.js';

/** The demo's broadcasts, and the README's first run: create one on the Support channel and watch it complete. */
describe('the demo broadcasts', { timeout: 120_000 }, () => {
  test('hold a completed broadcast and one scheduled for tomorrow; a new one completes, delivered', async ({
    server,
  }) => {
    const seeded = await server.seed(demoSeed);
    const client = server.client(seeded.users!.owner!.apiKey!).workspace;
    const channelId = seeded.channels!.support!;
    const contacts = (await client.contacts.list({ channelId })).pagination.total;
    const { data: demo } = await client.broadcasts.list({ channelId });
    expect(demo.map((b) => [b.name, b.status])).toEqual([
      ['Welcome week', 'scheduled'],
      ['Order A-1001 shipped', 'completed'],
    ]);
    const tomorrow = Date.parse(demo[0]!.scheduledAt!) - Date.now();
    expect(tomorrow).toBeGreaterThan(23 * 60 * 60 * 1000);
    expect(demo[1]!.counts).toMatchObject({ recipients: contacts, queued: 0, sent: 0 });
    expect(demo[1]!.counts.delivered + demo[1]!.counts.skipped).toBe(contacts);

    const created = await client.broadcasts.manage({
      channelId,
      action: 'create',
      name: 'Shipping notice',
      templateName: 'order_update',
      variables: ['{{contact.name}}', 'A-1001'],
      audience: { all: true },
      ratePerSecond: 20,
    });
    expect(created.data).toMatchObject({ status: 'preparing', counts: { recipients: 0 } });
    let broadcast = created.data;
    while (broadcast.counts.delivered + broadcast.counts.skipped < contacts) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      broadcast = (await client.broadcasts.list({ channelId })).data.find((b) => b.id === created.data.id)!;
    }
    expect(broadcast.status).toBe('completed');
    const { data: recipients } = await client.broadcasts.recipients({ channelId, broadcastId: broadcast.id });
    const delivered = recipients.filter((r) => r.status === 'delivered');
    expect(delivered.length).toBe(broadcast.counts.delivered);
    const ada = recipients.find((r) => r.phone === '15550000001')!;
    const { data: messages } = await client.chat.messages.list({ channelId, phone: ada.phone, limit: 1 });
    expect(messages[0]).toMatchObject({ msgid: ada.msgid, broadcastId: broadcast.id });
  });
});
