import { describe, expect, vi } from 'vitest';
import { sql } from '../helpers/database.js';
import { graphError } from '../helpers/graph-stand-in.js';
import { seedAudience } from './broadcast-audiences.js';
import { orderUpdate, whatsAppBroadcasts } from './whatsapp-broadcasts.js';

/**
 * Every status change of a message goes through one writer, which sends `message.status.updated` once per real
 * change (issue #38): the dispatcher's own `accepted` and `failed`, a dead dispatcher's `outcome_unknown`,
 * chat/message/cancel and a broadcast's cancel, as well as the provider's reports.
 */
const { graph, test, received } = await whatsAppBroadcasts(['message.status.updated']);

type StatusEvent = {
  msgid: string;
  status: string;
  previousStatus: string;
  reason?: string;
  error?: { code: number; title: string };
};
const statusEvents = () => received('message.status.updated').map((event) => event.data as StatusEvent);
const eventsOf = (msgid: string) => statusEvents().filter((data) => data.msgid === msgid);
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

describe('message.status.updated from every writer', { timeout: 120_000 }, () => {
  test('the dispatcher’s accepted and failed: one event each, from `sending`', async ({ server, wa, client }) => {
    const channelId = wa.waChannelId;
    const refused = '15592000002';
    graph.replyOnce({
      match: (request) => (request.body as { to?: string } | undefined)?.to === refused,
      status: 400,
      body: graphError(131026, 'Message undeliverable'),
    });
    const send = async (to: string) =>
      (
        await client.chat.templates.send({
          channelId,
          to,
          templateName: 'order_update',
          language: 'en_US',
          variables: ['Ada', 'A-1'],
          scheduledAt: inSeconds(2),
        })
      ).data.msgid;
    const [goes, fails] = [await send('15592000001'), await send(refused)];
    await vi.waitFor(
      async () => {
        expect((await client.chat.message.status({ msgid: goes })).data.status).not.toMatch(/scheduled|sending/);
        expect((await client.chat.message.status({ msgid: fails })).data.status).toBe('failed');
      },
      { timeout: 30_000, interval: 200 },
    );
    await server.untilIdle();
    expect(eventsOf(goes)).toEqual([expect.objectContaining({ status: 'accepted', previousStatus: 'sending' })]);
    expect(eventsOf(fails)).toEqual([
      expect.objectContaining({
        status: 'failed',
        previousStatus: 'sending',
        error: expect.objectContaining({ code: 131026 }),
      }),
    ]);
  });

  test('a dead dispatcher’s send: failed, outcome_unknown, one event', async ({ server, wa, client }) => {
    const { data } = await client.chat.templates.send({
      channelId: wa.waChannelId,
      to: '15592000003',
      templateName: 'order_update',
      language: 'en_US',
      variables: ['Ada', 'A-2'],
      scheduledAt: inSeconds(3600),
    });
    // What a dispatcher killed between its hand-over and its record leaves behind: `sending`, by nobody alive.
    await sql(
      server.databaseUrl,
      `update messages set status = 'sending', sending_by = gen_random_uuid() where msgid = $1`,
      [data.msgid],
    );
    await vi.waitFor(
      async () => expect((await client.chat.message.status({ msgid: data.msgid })).data.status).toBe('failed'),
      { timeout: 30_000, interval: 200 },
    );
    await server.untilIdle();
    expect((await client.chat.message.status({ msgid: data.msgid })).data.reason).toBe('outcome_unknown');
    expect(eventsOf(data.msgid)).toEqual([
      expect.objectContaining({ status: 'failed', previousStatus: 'sending', reason: 'outcome_unknown' }),
    ]);
  });

  test('chat/message/cancel and a broadcast’s cancel: one `cancelled` event per message', async ({
    server,
    wa,
    client,
    until,
  }) => {
    const channelId = wa.waChannelId;
    const { data: scheduled } = await client.chat.templates.send({
      channelId,
      to: '15592000004',
      templateName: 'order_update',
      language: 'en_US',
      variables: ['Ada', 'A-3'],
      scheduledAt: inSeconds(3600),
    });
    await client.chat.message.cancel({ msgid: scheduled.msgid });

    const { labelId } = await seedAudience(server.databaseUrl, channelId, 'evented', 30, 15_592_100_000);
    const { data } = await client.broadcasts.manage(
      orderUpdate(channelId, 'Evented', { labelIds: [labelId] }, { ratePerSecond: 2 }),
    );
    await until(data.id, (b) => b.counts.sent >= 2);
    await client.broadcasts.manage({ channelId, action: 'cancel', broadcastId: data.id });
    const settled = await until(data.id, (b) => b.counts.queued === 0);
    await server.untilIdle(60_000);

    expect(eventsOf(scheduled.msgid)).toEqual([
      expect.objectContaining({ status: 'cancelled', previousStatus: 'scheduled', reason: 'cancelled' }),
    ]);
    const cancelledIds = await sql<{ msgid: string }>(
      server.databaseUrl,
      `select msgid from messages where broadcast_id = $1 and status = 'cancelled'`,
      [data.id],
    );
    expect(cancelledIds).toHaveLength(settled.counts.skipped);
    const cancelledEvents = statusEvents().filter((event) => event.status === 'cancelled');
    for (const { msgid } of cancelledIds)
      expect(cancelledEvents.filter((event) => event.msgid === msgid)).toEqual([
        expect.objectContaining({ previousStatus: 'queued', reason: 'cancelled' }),
      ]);
  });
});
