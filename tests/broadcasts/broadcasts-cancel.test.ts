import pg from 'pg';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { seedAudience } from './broadcast-audiences.js';
import { started } from './broadcast-waits.js';
import { countsSum, orderUpdate, whatsAppBroadcasts } from './whatsapp-broadcasts.js';

/**
 * Cancelling a large broadcast (issue #38): the reply comes in bounded time, no send starts after it, and every
 * recipient not sent ends `skipped` with reason `cancelled`.
 */
const { test, sendsTo } = await whatsAppBroadcasts([]);

const RECIPIENTS = 10_000;
/** Fast enough that a dispatcher's batch of sends is always under way when the cancel lands. */
const RATE = 20;

describe('cancelling a 10,000-recipient broadcast', { timeout: 180_000 }, () => {
  test('plans no statement of the messages’ triggers for tiny inputs: 0 rows then thousands on one connection', async ({
    server,
    wa,
    client,
    until,
  }) => {
    const { labelId } = await seedAudience(server.databaseUrl, wa.waChannelId, 'planned', RECIPIENTS, 15_570_000_000);
    const { data } = await client.broadcasts.manage(
      orderUpdate(wa.waChannelId, 'Planned', { labelIds: [labelId] }, { ratePerSecond: 1 }),
    );
    await until(data.id, started, 60_000);
    await allResolved(server.databaseUrl, data.id);
    // The planner knows the prepared recipients at once, not at autovacuum's next round: with the table taken for
    // empty, the trigger following each send scanned it and recording a batch of sends passed the statement timeout.
    const plannedRows = async () =>
      (
        await sql<{ rows: number }>(
          server.databaseUrl,
          `select reltuples::float8 as rows from pg_class where oid = 'broadcast_recipients'::regclass`,
        )
      )[0]!.rows;
    await expect.poll(plannedRows, { timeout: 30_000 }).toBeGreaterThanOrEqual(RECIPIENTS);
    // PL/pgSQL plans a trigger's statements on their first run in a connection and keeps the plan: after an update
    // of no row, a plan joining the transition tables to each other compared every changed row with every other.
    const connection = new pg.Client({ connectionString: server.databaseUrl });
    await connection.connect();
    try {
      await connection.query('begin');
      await connection.query(`set local statement_timeout = '60s'`);
      await connection.query(`update messages set status = 'cancelled' where broadcast_id = $1 and false`, [data.id]);
      const began = Date.now();
      // Not due for minutes: no dispatcher holds them.
      const moved = await connection.query(
        `update messages set status = 'cancelled', reason = 'cancelled'
          where broadcast_id = $1 and status = 'queued' and due_at > now() + interval '5 minutes'`,
        [data.id],
      );
      const ms = Date.now() - began;
      expect(moved.rowCount).toBeGreaterThan(RECIPIENTS - 400);
      const [skipped] = (
        await connection.query<{ n: number }>(
          `select count(*)::int as n from broadcast_recipients where broadcast_id = $1 and status = 'skipped'`,
          [data.id],
        )
      ).rows;
      expect(skipped!.n).toBe(moved.rowCount);
      // Linear: a couple of seconds on a busy machine, where the quadratic plan took minutes.
      expect(ms).toBeLessThan(20_000);
    } finally {
      await connection.query('rollback');
      await connection.end();
    }
    await client.broadcasts.manage({ channelId: wa.waChannelId, action: 'cancel', broadcastId: data.id });
  });

  test('stops before the reply: no Graph call after it, the unsent skipped (cancelled), the counts add up', async ({
    server,
    wa,
    client,
    until,
  }) => {
    const { labelId, phones } = await seedAudience(
      server.databaseUrl,
      wa.waChannelId,
      'stopped',
      RECIPIENTS,
      15_580_000_000,
    );
    const { data } = await client.broadcasts.manage(
      orderUpdate(wa.waChannelId, 'Stopped', { labelIds: [labelId] }, { ratePerSecond: RATE }),
    );
    await until(data.id, (b) => b.counts.sent >= 10, 60_000);
    await allResolved(server.databaseUrl, data.id);
    // Warms the pool's connections with a small update of messages just before (the pool hands out the connection
    // used last): chat/message/cancel of a scheduled send, one row through the same triggers.
    const scheduled = await client.chat.templates.send({
      channelId: wa.waChannelId,
      to: phones[0]!,
      templateName: 'order_update',
      language: 'en_US',
      variables: ['Ada', 'A-1'],
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await client.chat.message.cancel({ msgid: scheduled.data.msgid });

    const asked = Date.now();
    const cancelled = await client.broadcasts.manage({
      channelId: wa.waChannelId,
      action: 'cancel',
      broadcastId: data.id,
    });
    const repliedAt = Date.now();
    expect(cancelled.data.status).toBe('cancelled');
    expect(repliedAt - asked).toBeLessThan(2_000);

    const settled = await until(data.id, (b) => b.counts.queued === 0, 120_000);
    await server.untilIdle();
    const audience = new Set(phones);
    expect(sendsTo(audience).filter((call) => call.receivedAt > repliedAt)).toEqual([]);
    const { sent, delivered, read, failed, skipped } = settled.counts;
    expect(countsSum(settled.counts)).toBe(RECIPIENTS);
    expect(settled.counts.recipients).toBe(RECIPIENTS);
    expect(sent + delivered + read + failed).toBe(sendsTo(audience).length);
    expect(skipped).toBe(RECIPIENTS - sendsTo(audience).length);
    const reasons = await sql<{ status: string; reason: string | null; n: number }>(
      server.databaseUrl,
      `select status, reason, count(*)::int as n from broadcast_recipients where broadcast_id = $1
        group by status, reason order by status`,
      [data.id],
    );
    expect(reasons.filter((row) => row.status === 'skipped')).toEqual([
      { status: 'skipped', reason: 'cancelled', n: skipped },
    ]);
    const [messages] = await sql<{ cancelled: number; unsent: number }>(
      server.databaseUrl,
      `select count(*) filter (where status = 'cancelled' and reason = 'cancelled')::int as cancelled,
              count(*) filter (where status in ('queued', 'scheduled', 'sending'))::int as unsent
         from messages where broadcast_id = $1`,
      [data.id],
    );
    expect(messages).toEqual({ cancelled: skipped, unsent: 0 });
  });

  test('queues its sends a chunk at a time after the first, each recipient once, spaced at its rate', async ({
    server,
    wa,
    client,
    until,
  }) => {
    const { labelId } = await seedAudience(server.databaseUrl, wa.waChannelId, 'chunked', RECIPIENTS, 15_590_000_000);
    const { data } = await client.broadcasts.manage(
      orderUpdate(wa.waChannelId, 'Chunked', { labelIds: [labelId] }, { ratePerSecond: 1 }),
    );
    await until(data.id, started, 60_000);
    await allResolved(server.databaseUrl, data.id);
    const [queueing] = await sql<{ messages: number; phones: number; transactions: number; offBeat: number }>(
      server.databaseUrl,
      `select count(*)::int as messages, count(distinct "to")::int as phones,
              count(distinct created_at)::int as transactions,
              count(*) filter (where gap is not null and gap <> interval '1 second')::int as "offBeat"
         from (select "to", created_at, due_at - lag(due_at) over (order by "to") as gap
                 from messages where broadcast_id = $1) m`,
      [data.id],
    );
    // The audience's statement queues the first few; the rest follow in chunks, due on the same beat.
    expect(queueing).toEqual({ messages: RECIPIENTS, phones: RECIPIENTS, transactions: 3, offBeat: 0 });
    await client.broadcasts.manage({ channelId: wa.waChannelId, action: 'cancel', broadcastId: data.id });
    const settled = await until(data.id, (b) => b.counts.queued === 0, 120_000);
    expect(countsSum(settled.counts)).toBe(RECIPIENTS);
  });

  test('cancelled while its audience is resolved: resolved no further, its recipients each sent or skipped', async ({
    server,
    wa,
    client,
    until,
  }) => {
    const { labelId } = await seedAudience(server.databaseUrl, wa.waChannelId, 'early', RECIPIENTS, 15_600_000_000);
    const { data } = await client.broadcasts.manage(
      orderUpdate(wa.waChannelId, 'Early', { labelIds: [labelId] }, { ratePerSecond: 1 }),
    );
    await until(data.id, started, 60_000);
    await client.broadcasts.manage({ channelId: wa.waChannelId, action: 'pause', broadcastId: data.id });
    const [paused] = await broadcastRow(server.databaseUrl, data.id);
    await client.broadcasts.manage({ channelId: wa.waChannelId, action: 'cancel', broadcastId: data.id });
    const settled = await until(data.id, (b) => b.counts.queued === 0, 120_000);
    await server.untilIdle();
    // The pause stopped the chunks: the audience resolved is the one the cancel found, and stays so.
    expect(settled.counts.recipients).toBe(paused!.recipients);
    expect(settled.counts.recipients).toBeLessThanOrEqual(RECIPIENTS);
    expect(countsSum(settled.counts)).toBe(settled.counts.recipients);
    const recipients = await sql<{ status: string; queued: boolean; n: number }>(
      server.databaseUrl,
      `select r.status, exists (select 1 from messages m where m.broadcast_id = r.broadcast_id and m."to" = r.phone)
              as queued, count(*)::int as n
         from broadcast_recipients r where r.broadcast_id = $1 group by 1, 2 order by 1, 2`,
      [data.id],
    );
    // Each recipient resolved had its message queued with it; none is left queued.
    expect(recipients.filter((row) => row.status === 'queued' || !row.queued)).toEqual([]);
    expect((await broadcastRow(server.databaseUrl, data.id))[0]!.resolving).toBe(false);
  });
});

/** The broadcast's row as the preparation keeps it. */
const broadcastRow = (databaseUrl: string, broadcastId: string) =>
  sql<{ recipients: number; resolving: boolean }>(
    databaseUrl,
    'select recipients, resolving from broadcasts where id = $1',
    [broadcastId],
  );

/** Waits until the broadcast's whole audience is resolved and its sends queued (its chunks done). */
async function allResolved(databaseUrl: string, broadcastId: string) {
  const resolving = async () => (await broadcastRow(databaseUrl, broadcastId))[0]!.resolving;
  await expect.poll(resolving, { timeout: 60_000, interval: 50 }).toBe(false);
}
