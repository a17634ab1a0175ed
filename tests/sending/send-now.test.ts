import { createLogger, statusSink } from '@switchboard/server';
import { describe, expect, vi } from 'vitest';
import { sql } from '../helpers/database.js';
import { seedAudience } from '../broadcasts/broadcast-audiences.js';
import { orderUpdate, whatsAppBroadcasts } from '../broadcasts/whatsapp-broadcasts.js';

/**
 * One pipeline for every send (issue #39): an API send is queued, then handed over in its request by the
 * dispatcher's own hand-over when the channel has budget, or left to the dispatcher when a broadcast holds it. A
 * provider's report that arrives before the send's outcome is recorded is parked, not lost.
 */
const { account, graph, test, sendsTo, statusEvents } = await whatsAppBroadcasts(['message.status.updated'], {
  // A slow channel: a broadcast's sends hold its budget ahead of an API send.
  SEND_RATE_PER_CHANNEL: '2',
});
const sendPath = `/v23.0/${account.phoneNumberId}/messages`;
const toPhone = (phone: string) => (r: { method: string; path: string; body: unknown }) =>
  r.method === 'POST' && r.path === sendPath && (r.body as { to?: string }).to === phone;
/** Reports nothing of its own: a report that changes a status queues its events through the server's jobs. */
const parkedOf = async (databaseUrl: string, providerMessageId: string) =>
  sql<{ status: string }>(
    databaseUrl,
    'select status from message_status_reports_parked where provider_message_id = $1',
    [providerMessageId],
  );

describe('the one send pipeline', { timeout: 120_000 }, () => {
  test('a session send while a broadcast holds the channel’s budget: queued, then sent by the dispatcher', async ({
    server,
    wa,
    client,
    until,
    untilStatus,
  }) => {
    const customer = '15593000001';
    await server.seed({
      messages: [
        {
          channel: wa.waChannelId,
          msgid: 'wamid.BUSY1',
          direction: 'inbound',
          from: customer,
          text: 'Where is my order?',
          createdAt: new Date(Date.now() - 60_000).toISOString(),
        },
      ],
    });
    const { labelId } = await seedAudience(server.databaseUrl, wa.waChannelId, 'busy', 12, 15_593_100_000);
    const { data } = await client.broadcasts.manage(orderUpdate(wa.waChannelId, 'Busy', { labelIds: [labelId] }));
    await until(data.id, (b) => b.counts.sent >= 1);

    const reply = await client.chat.message.send({ channelId: wa.waChannelId, to: customer, text: 'It ships today.' });
    expect(reply.data).toEqual({
      msgid: expect.stringMatching(/^sbm\.[0-9a-f]{32}$/),
      status: 'queued',
      to: customer,
      type: 'text',
    });
    await untilStatus(reply.data.msgid, 'accepted');
    expect(sendsTo(new Set([customer])).map((r) => r.body)).toEqual([
      expect.objectContaining({ type: 'text', text: { body: 'It ships today.', preview_url: false } }),
    ]);
    await until(data.id, (b) => b.status === 'completed');
    await server.untilIdle();
    expect(statusEvents(reply.data.msgid)).toEqual([
      expect.objectContaining({ status: 'accepted', previousStatus: 'sending' }),
    ]);
  });

  test('a report that arrives before the send’s outcome is recorded is parked, then applied with it', async ({
    server,
    wa,
    client,
    untilStatus,
  }) => {
    const phone = '15593000002';
    const providerId = 'wamid.EARLY1';
    // The channel's budget is free again (an earlier test's broadcast may have held it): this send goes at once.
    await vi.waitFor(
      async () => {
        const [pace] = await sql<{ free: boolean }>(
          server.databaseUrl,
          `select coalesce(bool_and(next_at <= now()), true) as free from send_paces where key = $1`,
          [`channel:${wa.waChannelId}`],
        );
        expect(pace!.free).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
    // Meta answers late, and its `delivered` report comes back before that answer does.
    graph.replyOnce({
      match: toPhone(phone),
      status: 200,
      body: { messaging_product: 'whatsapp', messages: [{ id: providerId }] },
      delayMs: 1500,
    });
    const sending = client.chat.templates.send({
      channelId: wa.waChannelId,
      to: phone,
      templateName: 'order_update',
      language: 'en_US',
      variables: ['Ada', 'A-1'],
    });
    await vi.waitFor(() => expect(graph.requests.some(toPhone(phone))).toBe(true), { timeout: 10_000 });
    const report = statusSink(server.database.orm.em, createLogger('silent'));
    try {
      await report({ provider: 'whatsapp_cloud', providerMessageId: providerId, status: 'delivered' });
    } finally {
      report.close();
    }
    expect(await parkedOf(server.databaseUrl, providerId)).toEqual([{ status: 'delivered' }]);

    const reply = await sending;
    expect(reply.data).toMatchObject({ msgid: providerId, status: 'accepted' });
    await untilStatus(providerId, 'delivered');
    expect(await parkedOf(server.databaseUrl, providerId)).toEqual([]);
    await server.untilIdle();
    expect(statusEvents(providerId)).toEqual([
      expect.objectContaining({ status: 'accepted', previousStatus: 'sending' }),
      expect.objectContaining({ status: 'delivered', previousStatus: 'accepted' }),
    ]);
  });

  test('a parked report no message ever takes expires after a day', async ({ server }) => {
    const report = statusSink(server.database.orm.em, createLogger('silent'));
    try {
      await report({ provider: 'whatsapp_cloud', providerMessageId: 'wamid.NEVER1', status: 'sent' });
      await report({ provider: 'whatsapp_cloud', providerMessageId: 'wamid.NEVER2', status: 'sent' });
    } finally {
      report.close();
    }
    await sql(
      server.databaseUrl,
      `update message_status_reports_parked set parked_at = now() - interval '1 day 1 minute'
        where provider_message_id = 'wamid.NEVER1'`,
    );
    await vi.waitFor(async () => expect(await parkedOf(server.databaseUrl, 'wamid.NEVER1')).toEqual([]), {
      timeout: 30_000,
      interval: 200,
    });
    // A report parked less than a day ago is kept: its message may still be recorded.
    expect(await parkedOf(server.databaseUrl, 'wamid.NEVER2')).toEqual([{ status: 'sent' }]);
  });
});
