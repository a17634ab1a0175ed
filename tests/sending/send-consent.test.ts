import { randomBytes } from 'node:crypto';
import { describe, expect, vi } from 'vitest';
import { sql } from '../helpers/database.js';
import { messagesChange, notification, postSigned } from '../whatsapp-inbound/inbound-fixture.js';
import { seedAudience } from '../broadcasts/broadcast-audiences.js';
import { countsSum, orderUpdate, whatsAppBroadcasts } from '../broadcasts/whatsapp-broadcasts.js';

/**
 * Consent is checked when a send's turn comes, not only when it is queued (issue #38): a MARKETING template, and any
 * broadcast's send, to a contact who opted out or was blocked meanwhile is never handed to Meta; it ends `cancelled`
 * with the reason, and says so everywhere an integrator looks.
 */
const { account, test, sendsTo, statusEvents } = await whatsAppBroadcasts(['message.status.updated']);

/** The customer at `phone` writes `text` to the WhatsApp channel, as Meta's webhook delivers it. */
async function customerSays(baseUrl: string, channelId: string, phone: string, text: string) {
  const message = { id: `wamid.${randomBytes(12).toString('hex')}`, from: phone, text };
  const body = notification({
    wabaId: account.wabaId,
    changes: [messagesChange(account.phoneNumberId, { messages: [message] })],
  });
  const reply = await postSigned(baseUrl, { channelId, ...account }, body);
  expect(reply.status).toBe(200);
}

describe('consent at send time', { timeout: 120_000 }, () => {
  test('a scheduled MARKETING template is cancelled when its contact says STOP before its time; UTILITY goes', async ({
    server,
    wa,
    client,
    schedule,
    untilStatus,
  }) => {
    const phone = '15590000001';
    const channelId = wa.waChannelId;
    await server.seed({ contacts: [{ channel: channelId, name: 'Stella', phone }] });
    const welcome = await schedule(phone, 'welcome', [], 6);
    const order = await schedule(phone, 'order_update', ['Stella', 'A-7'], 6);

    await customerSays(server.baseUrl, channelId, phone, 'STOP');
    await vi.waitFor(
      async () => expect((await client.contacts.get({ channelId, phone })).data.status).toBe('unsubscribed'),
      { timeout: 20_000, interval: 100 },
    );
    // Scheduled work is `later` for the idle signal until its time: the signal is the statuses.
    await untilStatus(order, 'accepted');
    expect(await untilStatus(welcome, 'cancelled')).toEqual({
      msgid: welcome,
      status: 'cancelled',
      reason: 'contact_unsubscribed',
      direction: 'outbound',
      type: 'template',
    });
    await server.untilIdle();

    const history = await client.chat.messages.list({ channelId, phone });
    expect(history.data.find((m) => m.msgid === welcome)).toMatchObject({
      status: 'cancelled',
      reason: 'contact_unsubscribed',
    });
    expect(statusEvents(welcome)).toEqual([
      expect.objectContaining({ status: 'cancelled', previousStatus: 'scheduled', reason: 'contact_unsubscribed' }),
    ]);
    const calls = sendsTo(new Set([phone])).map((call) => (call.body as { template: { name: string } }).template.name);
    expect(calls).toEqual(['order_update']);
  });

  test('a contact blocked in between: its scheduled MARKETING template is cancelled, contact_blocked', async ({
    server,
    wa: { waChannelId: channelId },
    client,
    schedule,
    untilStatus,
  }) => {
    const bert = { channelId, phone: '15590000002' };
    await client.contacts.manage({ ...bert, name: 'Bert' });
    const msgid = await schedule(bert.phone, 'welcome', [], 4);
    await client.contacts.manage({ ...bert, status: 'blocked' });
    expect((await untilStatus(msgid, 'cancelled')).reason).toBe('contact_blocked');
    await server.untilIdle();
    expect(statusEvents(msgid)).toEqual([
      expect.objectContaining({ status: 'cancelled', previousStatus: 'scheduled', reason: 'contact_blocked' }),
    ]);
    expect(sendsTo(new Set([bert.phone]))).toEqual([]);
  });

  test('a paced broadcast skips a recipient who opts out mid-way and one blocked meanwhile; the rest go', async ({
    server,
    wa,
    client,
    until,
  }) => {
    const channelId = wa.waChannelId;
    const { labelId, phones } = await seedAudience(server.databaseUrl, channelId, 'paced', 10, 15_591_000_000);
    const [optsOut, blocked] = [phones.at(-1)!, phones.at(-2)!];
    const { data } = await client.broadcasts.manage(
      orderUpdate(channelId, 'Paced consent', { labelIds: [labelId] }, { ratePerSecond: 1 }),
    );
    // Sends go by phone: the first is out, the last two are seconds away.
    await until(data.id, (b) => b.counts.sent >= 1);
    await customerSays(server.baseUrl, channelId, optsOut, 'Stop');
    await client.contacts.manage({ channelId, phone: blocked, status: 'blocked' });
    const done = await until(data.id, (b) => b.status === 'completed', 60_000);
    await server.untilIdle();

    expect(done.counts).toMatchObject({ recipients: 10, queued: 0, skipped: 2, failed: 0 });
    expect(countsSum(done.counts)).toBe(10);
    const { data: skipped } = await client.broadcasts.recipients({
      channelId,
      broadcastId: data.id,
      status: 'skipped',
    });
    expect(skipped.map(({ phone, reason, msgid }) => ({ phone, reason, msgid }))).toEqual([
      { phone: blocked, reason: 'contact_blocked', msgid: null },
      { phone: optsOut, reason: 'contact_unsubscribed', msgid: null },
    ]);
    expect(sendsTo(new Set([optsOut, blocked]))).toEqual([]);
    expect(sendsTo(new Set(phones))).toHaveLength(8);
    const messages = await sql<{ to: string; status: string; reason: string }>(
      server.databaseUrl,
      `select "to", status, reason from messages where broadcast_id = $1 and status = 'cancelled' order by "to"`,
      [data.id],
    );
    expect(messages).toEqual([
      { to: blocked, status: 'cancelled', reason: 'contact_blocked' },
      { to: optsOut, status: 'cancelled', reason: 'contact_unsubscribed' },
    ]);
  });
});
