import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { graphError } from '../helpers/graph-stand-in.js';
import { seedAudience } from '../broadcasts/broadcast-audiences.js';
import { orderUpdate, whatsAppBroadcasts } from '../broadcasts/whatsapp-broadcasts.js';

/**
 * Every status change of a message goes through one writer, which sends `message.status.updated` once per real
 * change (issue #38): the dispatcher's own `accepted` and `failed`, a dead dispatcher's `outcome_unknown`,
 * chat/message/cancel and a broadcast's cancel, as well as the provider's reports.
 */
const { graph, test, statusEvents } = await whatsAppBroadcasts(['message.status.updated']);

describe('message.status.updated from every writer', { timeout: 120_000 }, () => {
  test('the dispatcher’s accepted and failed: one event each, from `sending`', async ({
    server,
    schedule,
    untilStatus,
  }) => {
    const refused = '15592000002';
    graph.replyOnce({
      match: (request) => (request.body as { to?: string } | undefined)?.to === refused,
      status: 400,
      body: graphError(131026, 'Message undeliverable'),
    });
    const goes = await schedule('15592000001', 'order_update', ['Ada', 'A-1'], 2);
    const fails = await schedule(refused, 'order_update', ['Ada', 'A-1'], 2);
    await untilStatus(fails, 'failed');
    // The stand-in sends no status webhooks: `accepted` is where the other one stays.
    await untilStatus(goes, 'accepted');
    await server.untilIdle();
    expect(statusEvents(goes)).toEqual([expect.objectContaining({ status: 'accepted', previousStatus: 'sending' })]);
    expect(statusEvents(fails)).toEqual([
      expect.objectContaining({
        status: 'failed',
        previousStatus: 'sending',
        error: expect.objectContaining({ code: 131026 }),
      }),
    ]);
  });

  test('a dead dispatcher’s send: failed, outcome_unknown, one event', async ({ server, schedule, untilStatus }) => {
    const msgid = await schedule('15592000003', 'order_update', ['Ada', 'A-2'], 3600);
    // What a dispatcher killed between its hand-over and its record leaves behind: `sending`, by nobody alive.
    await sql(
      server.databaseUrl,
      `update messages set status = 'sending', sending_by = gen_random_uuid() where msgid = $1`,
      [msgid],
    );
    expect((await untilStatus(msgid, 'failed')).reason).toBe('outcome_unknown');
    await server.untilIdle();
    expect(statusEvents(msgid)).toEqual([
      expect.objectContaining({ status: 'failed', previousStatus: 'sending', reason: 'outcome_unknown' }),
    ]);
  });

  test('chat/message/cancel and a broadcast’s cancel: one `cancelled` event per message', async ({
    server,
    wa,
    client,
    until,
    schedule,
  }) => {
    const channelId = wa.waChannelId;
    const scheduled = await schedule('15592000004', 'order_update', ['Ada', 'A-3'], 3600);
    await client.chat.message.cancel({ msgid: scheduled });

    const { labelId } = await seedAudience(server.databaseUrl, channelId, 'evented', 30, 15_592_100_000);
    const { data } = await client.broadcasts.manage(
      orderUpdate(channelId, 'Evented', { labelIds: [labelId] }, { ratePerSecond: 2 }),
    );
    await until(data.id, (b) => b.counts.sent >= 2);
    await client.broadcasts.manage({ channelId, action: 'cancel', broadcastId: data.id });
    const settled = await until(data.id, (b) => b.counts.queued === 0);
    await server.untilIdle(60_000);

    expect(statusEvents(scheduled)).toEqual([
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
