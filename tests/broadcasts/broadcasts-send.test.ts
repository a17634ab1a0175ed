import type { Broadcast } from '@switchboard/contract';
import { describe, expect, vi } from 'vitest';
import { lockTable, sql, waitingOn } from '../helpers/database.js';
import { countsSum as sum, orderUpdate as create, whatsAppBroadcasts } from './whatsapp-broadcasts.js';

/** Broadcasts sent through the send pipeline to a WhatsApp channel (the Graph stand-in), as an integrator sees them. */
const { test: base, hooks, sendsTo } = await whatsAppBroadcasts(['broadcast.completed']);

/** Where a WhatsApp channel's credentials are read from before each of its sends. */
const CREDENTIALS = 'whatsapp_connections';

const test = base
  /** `count` new contacts of the WhatsApp channel under a label of their own, for one audience. */
  .extend('audience', ({ server, wa, client }) => async (name: string, count: number, first: number) => {
    const phones = Array.from({ length: count }, (_, i) => `1555${String(first + i).padStart(7, '0')}`);
    await server.seed({
      labels: [{ channel: wa.waChannelId, name }],
      contacts: phones.map((phone, i) => ({ channel: wa.waChannelId, name: `${name} ${i}`, phone, labels: [name] })),
    });
    const label = (await client.labels.list({ channelId: wa.waChannelId })).data.find((l) => l.name === name)!;
    return { labelIds: [label.id], phones: new Set(phones) };
  })
  /**
   * A one-recipient broadcast (a label of its own) whose send waits for the channel's credentials: a lock holds
   * their table until `release()`, at the latest when the test ends.
   */
  .extend('held', ({ server, wa, client, audience }, { onCleanup }) => async (name: string, first: number) => {
    const { labelIds, phones } = await audience(name.toLowerCase(), 1, first);
    const lock = await lockTable(server.databaseUrl, CREDENTIALS);
    onCleanup(lock.release);
    const { data } = await client.broadcasts.manage(create(wa.waChannelId, name, { labelIds }));
    return { phones, release: lock.release, broadcastId: data.id };
  });

/** The one read of the channel's credentials waiting on a lockTable (other than `not`): its backend pid. */
const credentialsRead = (databaseUrl: string, not?: number) =>
  vi.waitFor(
    async () => {
      const waiting = (await waitingOn(databaseUrl, CREDENTIALS)).filter((pid) => pid !== not);
      expect(waiting).toHaveLength(1);
      return waiting[0]!;
    },
    { timeout: 10_000, interval: 50 },
  );

/** Cuts a backend's connection, as an outage would: the statement it was running fails. */
const cut = (databaseUrl: string, pid: number) => sql(databaseUrl, 'select pg_terminate_backend($1)', [pid]);

describe('broadcasts through the send pipeline', { timeout: 90_000 }, () => {
  test('200 recipients at 20/s take 10 s ± 15%, one Graph call each, filled per recipient, then completed', async ({
    client,
    wa,
    audience,
    until,
    server,
  }) => {
    const { labelIds, phones } = await audience('pace', 200, 0);
    const created = await client.broadcasts.manage(
      create(wa.waChannelId, 'Paced', { labelIds }, { ratePerSecond: 20 }),
    );
    // It answers at once: its audience is resolved in the background.
    expect(created.data).toMatchObject({ status: 'preparing', ratePerSecond: 20, startedAt: null });
    expect(created.data.counts.recipients).toBe(0);
    const done = await until(created.data.id, (b) => b.status === 'completed');
    expect(done.counts).toMatchObject({ recipients: 200, queued: 0, failed: 0, skipped: 0 });
    expect(sum(done.counts)).toBe(200);

    const calls = sendsTo(phones);
    expect(new Set(calls.map((c) => (c.body as { to: string }).to)).size).toBe(200);
    expect(calls).toHaveLength(200);
    const seconds = (calls.at(-1)!.receivedAt - calls[0]!.receivedAt) / 1000;
    expect(seconds).toBeGreaterThan(10 * 0.85);
    expect(seconds).toBeLessThan(10 * 1.15);
    // Each recipient's own name in the first variable.
    const first = calls.find((c) => (c.body as { to: string }).to === '15550000007')!;
    expect(JSON.stringify(first.body)).toContain('pace 7');

    const { data: recipients, pagination } = await client.broadcasts.recipients({
      channelId: wa.waChannelId,
      broadcastId: done.id,
      status: 'sent',
      limit: 200,
    });
    expect(pagination.total).toBe(done.counts.sent);
    const one = recipients[0]!;
    expect(one).toMatchObject({ status: 'sent', reason: null, msgid: expect.any(String) });
    const { data: messages } = await client.chat.messages.list({ channelId: wa.waChannelId, phone: one.phone });
    expect(messages[0]).toMatchObject({ msgid: one.msgid, broadcastId: done.id });

    // broadcast.completed, once, with the broadcast and its counts.
    const events = () => hooks.received.filter((h) => h.verified?.type === 'broadcast.completed');
    while (!events().some((e) => (e.verified!.data as unknown as { broadcast: Broadcast }).broadcast.id === done.id))
      await new Promise((resolve) => setTimeout(resolve, 100));
    const [event] = events().filter(
      (e) => (e.verified!.data as unknown as { broadcast: Broadcast }).broadcast.id === done.id,
    );
    expect(event!.verified!.data).toMatchObject({
      channelId: wa.waChannelId,
      broadcast: { id: done.id, status: 'completed' },
    });
    const [row] = await sql(server.databaseUrl, 'select completed_event_at from broadcasts where id = $1', [done.id]);
    expect(row!.completed_event_at).not.toBeNull();
  });

  test('cancel stops a sending broadcast within 2 s; its unsent recipients are skipped, cancelled', async ({
    client,
    wa,
    audience,
    until,
  }) => {
    const { labelIds, phones } = await audience('stop', 60, 1000);
    const created = await client.broadcasts.manage(
      create(wa.waChannelId, 'Stopped', { labelIds }, { ratePerSecond: 10 }),
    );
    await until(created.data.id, (b) => b.counts.sent >= 5);
    const cancelled = await client.broadcasts.manage({
      channelId: wa.waChannelId,
      action: 'cancel',
      broadcastId: created.data.id,
    });
    const cancelledAt = Date.now();
    expect(cancelled.data.status).toBe('cancelled');
    const settled = await until(created.data.id, (b) => b.counts.queued === 0);
    expect(settled.status).toBe('cancelled');
    expect(sum(settled.counts)).toBe(60);
    expect(settled.counts.skipped).toBeGreaterThan(0);
    expect(settled.counts.sent + settled.counts.failed + settled.counts.skipped).toBe(60);
    expect(sendsTo(phones).filter((c) => c.receivedAt > cancelledAt + 2000)).toEqual([]);
    expect(sendsTo(phones)).toHaveLength(settled.counts.sent + settled.counts.failed);
    const skipped = await client.broadcasts.recipients({
      channelId: wa.waChannelId,
      broadcastId: created.data.id,
      status: 'skipped',
      limit: 200,
    });
    expect(new Set(skipped.data.map((r) => r.reason))).toEqual(new Set(['cancelled']));
    expect(skipped.data.every((r) => r.msgid === null)).toBe(true);
  });

  test('a scheduled broadcast starts within 5 s of its time', async ({ client, wa, audience, until }) => {
    const { labelIds, phones } = await audience('later', 3, 2000);
    const at = new Date(Date.now() + 3000);
    const created = await client.broadcasts.manage(
      create(wa.waChannelId, 'Later', { labelIds }, { scheduledAt: at.toISOString() }),
    );
    expect(created.data).toMatchObject({ status: 'scheduled', startedAt: null, counts: { recipients: 0 } });
    expect(sendsTo(phones)).toEqual([]);
    const done = await until(created.data.id, (b) => b.status === 'completed');
    const startedLate = Date.parse(done.startedAt!) - at.getTime();
    expect(startedLate).toBeGreaterThanOrEqual(0);
    expect(startedLate).toBeLessThan(5000);
    expect(done.counts).toMatchObject({ recipients: 3, sent: 3 });
    expect(sendsTo(phones)).toHaveLength(3);
  });

  test('a send whose credentials read failed is queued again and sent once they can be read: one Graph call', async ({
    held,
    until,
    server,
  }) => {
    const { phones, release, broadcastId } = await held('Unread', 3000);
    // The dispatcher claimed the message and its provider waits for the credentials: that read fails before any
    // call to Meta, so the message is queued again and claimed again, and the next read waits.
    const first = await credentialsRead(server.databaseUrl);
    await cut(server.databaseUrl, first);
    await credentialsRead(server.databaseUrl, first);
    expect(sendsTo(phones)).toEqual([]);
    await release();
    const done = await until(broadcastId, (b) => b.status === 'completed');
    expect(done.counts).toMatchObject({ recipients: 1, sent: 1, failed: 0 });
    expect(sendsTo(phones)).toHaveLength(1);
  });

  test('a broadcast cancelled while its send waited for credentials skips it: never sent', async ({
    client,
    wa,
    held,
    until,
    server,
  }) => {
    const { phones, release, broadcastId } = await held('Unsent', 3100);
    // Cancelled while handed over (it is no longer queued, so the cancel leaves it to its call), then the call turns
    // out never to have been made: it must end cancelled, not be sent from the queue of a cancelled broadcast.
    const read = await credentialsRead(server.databaseUrl);
    await client.broadcasts.manage({ channelId: wa.waChannelId, action: 'cancel', broadcastId });
    await cut(server.databaseUrl, read);
    const settled = await until(broadcastId, (b) => b.counts.queued === 0);
    expect(settled).toMatchObject({ status: 'cancelled', counts: { recipients: 1, skipped: 1 } });
    await release();
    const messages = await sql(server.databaseUrl, 'select status, reason from messages where broadcast_id = $1', [
      broadcastId,
    ]);
    expect(messages).toEqual([{ status: 'cancelled', reason: 'cancelled' }]);
    expect(sendsTo(phones)).toEqual([]);
  });
});
