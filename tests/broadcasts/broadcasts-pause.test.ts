import type { SwitchboardClient } from '@switchboard/client';
import type { Broadcast } from '@switchboard/contract';
import { describe, expect, vi } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { postSigned } from '../whatsapp-inbound/inbound-fixture.js';
import { seedAudience } from './broadcast-audiences.js';
import { untilBroadcast } from './broadcast-waits.js';
import { orderUpdate, whatsAppBroadcasts } from './whatsapp-broadcasts.js';

/**
 * Pausing and resuming a broadcast (issue #41): Meta pausing its template pauses it mid-send, its queued recipients
 * staying queued; it resumes only when asked and only with the template approved again, and every recipient then
 * gets exactly one message. broadcasts/manage pauses and resumes one on request.
 */
const { account, graph, test, sendsTo } = await whatsAppBroadcasts([]);

/** The stand-in's order_update (en_US): a send of it is refused (132001) unless it is APPROVED. */
const standInTemplate = () =>
  graph.templates[account.wabaId]!.find((t) => t.name === 'order_update' && t.language === 'en_US')!;

/** Meta's `message_template_status_update` for order_update (en_US), signed as Meta signs it. */
function templateStatus(baseUrl: string, channelId: string, event: 'PAUSED' | 'APPROVED') {
  const value = {
    event,
    message_template_id: 1000,
    message_template_name: 'order_update',
    message_template_language: 'en_US',
    reason: event === 'PAUSED' ? 'Paused for low quality' : 'NONE',
  };
  return postSigned(
    baseUrl,
    { channelId, ...account },
    {
      object: 'whatsapp_business_account',
      entry: [{ id: account.wabaId, changes: [{ field: 'message_template_status_update', value }] }],
    },
  );
}

/** How many messages of the broadcast went to each phone, and how many are still queued. */
async function sendsOf(databaseUrl: string, broadcastId: string) {
  const rows = await sql<{ to: string; n: number; queued: number }>(
    databaseUrl,
    `select "to", count(*)::int as n, count(*) filter (where status = 'queued')::int as queued
       from messages where broadcast_id = $1 group by "to"`,
    [broadcastId],
  );
  return rows;
}

/**
 * The signal that a paused broadcast's held sends would have gone by now had they not been held: a template send to
 * a phone outside the audience, scheduled after the last of them was due at the broadcast's pace, made by the
 * pipeline (which takes a channel's due sends oldest first).
 */
async function pastItsPace(
  client: SwitchboardClient['workspace'],
  broadcast: Broadcast,
  send: { channelId: string; to: string; templateName: string; variables: string[] },
) {
  const lastDue = Date.parse(broadcast.startedAt!) + (broadcast.counts.recipients / broadcast.ratePerSecond) * 1000;
  const { data } = await client.chat.templates.send({
    ...send,
    language: 'en_US',
    scheduledAt: new Date(Math.max(lastDue, Date.now()) + 1000).toISOString(),
  });
  await vi.waitFor(
    async () => {
      const { data: status } = await client.chat.message.status({ msgid: data.msgid });
      expect(['scheduled', 'queued', 'sending']).not.toContain(status.status);
    },
    { timeout: 30_000, interval: 200 },
  );
}

const RECIPIENTS = 10;

describe('pausing a broadcast', { timeout: 120_000 }, () => {
  test('Meta pausing its template pauses it mid-send; resumed after re-approval, each recipient gets one', async ({
    server,
    wa,
    client,
    until,
  }) => {
    const { labelId, phones } = await seedAudience(
      server.databaseUrl,
      wa.waChannelId,
      'paced',
      RECIPIENTS,
      15_590_000_000,
    );
    const audience = new Set(phones);
    const { data } = await client.broadcasts.manage(
      orderUpdate(wa.waChannelId, 'Paced', { labelIds: [labelId] }, { ratePerSecond: 1 }),
    );
    await until(data.id, (b) => b.counts.sent >= 2);

    expect((await templateStatus(server.baseUrl, wa.waChannelId, 'PAUSED')).status).toBe(200);
    const paused = await until(data.id, (b) => b.status === 'paused');
    expect(paused.pausedReason).toBe('template_paused');
    // Every effect of the pause has happened (a send in a call when it landed recorded); from here Meta refuses the
    // template too, so a send leaking through would show as failed.
    await server.untilIdle();
    standInTemplate().status = 'PAUSED';
    const before = sendsTo(audience).length;
    const held = await until(data.id, () => true);
    expect(held).toMatchObject({ status: 'paused', pausedReason: 'template_paused' });
    expect(held.counts.queued).toBe(RECIPIENTS - before);
    expect(held.counts.queued).toBeGreaterThan(0);
    expect(held.counts.failed).toBe(0);
    const queued = await client.broadcasts.recipients({
      channelId: wa.waChannelId,
      broadcastId: data.id,
      status: 'queued',
      limit: 100,
    });
    expect(queued.data).toHaveLength(RECIPIENTS - before);

    await expectError(
      client.broadcasts.manage({ channelId: wa.waChannelId, action: 'resume', broadcastId: data.id }),
      400,
      'template_not_approved',
    );
    standInTemplate().status = 'APPROVED';
    await pastItsPace(client, held, {
      channelId: wa.waChannelId,
      to: '15590099999',
      templateName: 'welcome',
      variables: [],
    });
    expect(sendsTo(audience)).toHaveLength(before);
    expect((await templateStatus(server.baseUrl, wa.waChannelId, 'APPROVED')).status).toBe(200);
    await server.untilIdle();
    const templates = await client.chat.templates.list({ channelId: wa.waChannelId });
    expect(templates.data.find((t) => t.name === 'order_update' && t.language === 'en_US')?.status).toBe('approved');
    // Approval alone does not resume it.
    expect((await until(data.id, () => true)).status).toBe('paused');
    expect(sendsTo(audience)).toHaveLength(before);

    const resumed = await client.broadcasts.manage({
      channelId: wa.waChannelId,
      action: 'resume',
      broadcastId: data.id,
    });
    expect(resumed).toMatchObject({
      message: 'Broadcast resumed successfully',
      data: { status: 'sending', pausedReason: null },
    });
    const completed = await until(data.id, (b) => b.status === 'completed', 60_000);
    expect(completed.counts).toMatchObject({ recipients: RECIPIENTS, queued: 0, failed: 0, skipped: 0 });
    const calls = sendsTo(audience).map((call) => (call.body as { to: string }).to);
    expect(calls.toSorted()).toEqual(phones.toSorted());
    expect((await sendsOf(server.databaseUrl, data.id)).every((row) => row.n === 1 && row.queued === 0)).toBe(true);
  });

  test('broadcasts/manage pauses and resumes a sandbox broadcast; each recipient gets one message', async ({
    server,
    wa,
  }) => {
    const client = server.client(wa.ownerKey).workspace;
    const channelId = wa.sandboxChannelId;
    const { labelId, phones } = await seedAudience(server.databaseUrl, channelId, 'manual', 6, 15_591_000_000);
    const { data } = await client.broadcasts.manage({
      channelId,
      action: 'create',
      name: 'Manual pause',
      templateName: 'hello',
      variables: ['{{contact.name}}'],
      audience: { labelIds: [labelId] },
      ratePerSecond: 1,
    });
    await untilBroadcast(client.broadcasts, data.id, (b) => b.status === 'sending' && b.counts.queued < 6, {
      channelId,
    });
    const paused = await client.broadcasts.manage({ channelId, action: 'pause', broadcastId: data.id });
    expect(paused).toMatchObject({
      success: true,
      message: 'Broadcast paused successfully',
      data: { status: 'paused', pausedReason: 'by_request' },
    });
    await expectInvalid(
      client.broadcasts.manage({ channelId, action: 'pause', broadcastId: data.id }),
      'broadcastId',
      'the broadcast is paused: only a scheduled, preparing or sending one can be paused',
    );
    await server.untilIdle();
    const before = await sendsOf(server.databaseUrl, data.id);
    const stillQueued = before.filter((row) => row.queued > 0).length;
    expect(stillQueued).toBeGreaterThan(0);
    await pastItsPace(client, paused.data, { channelId, to: '15591099999', templateName: 'hello', variables: ['Ada'] });
    const held = await untilBroadcast(client.broadcasts, data.id, () => true, { channelId });
    expect(held).toMatchObject({ status: 'paused', counts: { queued: stillQueued } });
    const [due] = await sql<{ n: number }>(
      server.databaseUrl,
      `select count(*)::int as n from messages where broadcast_id = $1 and status = 'queued' and due_at is not null`,
      [data.id],
    );
    expect(due!.n).toBe(0);

    const resumed = await client.broadcasts.manage({ channelId, action: 'resume', broadcastId: data.id });
    expect(resumed.data).toMatchObject({ status: 'sending', pausedReason: null });
    await expectInvalid(
      client.broadcasts.manage({ channelId, action: 'resume', broadcastId: data.id }),
      'broadcastId',
      'the broadcast is sending: only a paused one can be resumed',
    );
    const completed = await untilBroadcast(client.broadcasts, data.id, (b) => b.status === 'completed', {
      channelId,
      timeoutMs: 60_000,
    });
    expect(completed.counts).toMatchObject({ recipients: 6, queued: 0, failed: 0, skipped: 0 });
    const sent = await sendsOf(server.databaseUrl, data.id);
    expect(sent.map((row) => row.to).toSorted()).toEqual(phones.toSorted());
    expect(sent.every((row) => row.n === 1 && row.queued === 0)).toBe(true);
  });

  test('a scheduled broadcast paused and resumed is scheduled again; a paused one can be cancelled', async ({
    wa,
    client,
  }) => {
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const { data } = await client.broadcasts.manage(
      orderUpdate(wa.waChannelId, 'Later', { labelIds: [] as string[] }, { audience: { all: true }, scheduledAt }),
    );
    const channelId = wa.waChannelId;
    const paused = await client.broadcasts.manage({ channelId, action: 'pause', broadcastId: data.id });
    expect(paused.data).toMatchObject({ status: 'paused', pausedReason: 'by_request', startedAt: null });
    const resumed = await client.broadcasts.manage({ channelId, action: 'resume', broadcastId: data.id });
    expect(resumed.data).toEqual({ ...data, status: 'scheduled', pausedReason: null });
    await client.broadcasts.manage({ channelId, action: 'pause', broadcastId: data.id });
    const cancelled = await client.broadcasts.manage({ channelId, action: 'cancel', broadcastId: data.id });
    expect(cancelled.data).toMatchObject({ status: 'cancelled', pausedReason: null });
    await expectInvalid(
      client.broadcasts.manage({ channelId, action: 'pause', broadcastId: data.id }),
      'broadcastId',
      'the broadcast is cancelled',
    );
  });
});
