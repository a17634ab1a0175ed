import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../helpers/database.js';
import { tenantSeed } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../helpers/receivers.js';
import {
  connectChannel,
  eventsOf,
  insertOutbound,
  isoAt,
  messagesChange,
  notification,
  postSigned,
  SECRETS_KEY,
  storedDeliveries,
  type ConnectedChannel,
  type MetaStatus,
} from './inbound-fixture.js';

interface StatusEvent {
  msgid: string;
  channelId: string;
  status: string;
  previousStatus: string;
  error?: { code: number; title: string };
  timestamp: string;
}

/**
 * Issue #11: Meta's `statuses[]` applied through the status sink (never backwards; failed final unless delivery is
 * proven), `chat/message/status` showing them, and `message.status.updated` sent signed to the platform's endpoint —
 * once per real change, for WhatsApp's reports and the sandbox's alike.
 */
describe('inbound WhatsApp statuses and message.status.updated', () => {
  const secret = newWebhookSecret();
  let server: TestServer;
  let hooks: WebhookReceiver;
  let whatsapp: ConnectedChannel;
  let memberKey: string;
  let ownerKey: string;
  let sandboxChannelId: string;

  const post = (statuses: MetaStatus[], phoneNumberId = whatsapp.phoneNumberId) =>
    postSigned(
      server.baseUrl,
      whatsapp,
      notification({ wabaId: whatsapp.wabaId, changes: [messagesChange(phoneNumberId, { statuses })] }),
    );
  const statusOf = async (msgid: string) =>
    (await server.client(memberKey).workspace.chat.message.status({ msgid })).data;
  const eventsFor = (msgid: string) =>
    eventsOf<StatusEvent>(hooks.received, 'message.status.updated', (data) => data.msgid === msgid);
  /** Waits until every stored delivery of the channel has been applied. */
  const applied = () =>
    expect
      .poll(
        async () =>
          (await storedDeliveries(server.databaseUrl, whatsapp.channelId)).every((row) => row.status === 'applied'),
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);

  beforeAll(async () => {
    hooks = await startWebhookReceiver(secret);
    server = await startTestServer({
      SECRETS_KEY,
      DELIVERY_RETRY_SCHEDULE: '1',
      ALLOW_HTTP_WEBHOOKS: 'true',
      SANDBOX_SENT_AFTER_MS: '200',
      SANDBOX_DELIVERED_AFTER_MS: '600',
    });
    const file = tenantSeed('Acme');
    file.platforms![0]!.webhooks = [{ url: hooks.url, secret, events: ['message.status.updated'] }];
    const ids = await server.seed(file);
    [memberKey, ownerKey, sandboxChannelId] = [
      ids.users!.member!.apiKey!,
      ids.users!.owner!.apiKey!,
      ids.channels!.second!,
    ];
    whatsapp = await connectChannel({ em: server.database.orm.em.fork() }, ids.channels!.main!);
  });
  afterAll(async () => {
    await server?.close();
    await hooks?.close();
  });

  it('sent → delivered → read: each applied, shown, and announced once with the previous status', async () => {
    const msgid = await insertOutbound(server.databaseUrl, whatsapp.channelId);
    for (const [at, status] of [
      [1, 'sent'],
      [2, 'delivered'],
      [3, 'read'],
    ] as const) {
      expect((await post([{ id: msgid, status, at }])).status).toBe(200);
      await expect.poll(async () => (await statusOf(msgid)).status, { timeout: 10_000, interval: 50 }).toBe(status);
    }
    expect(await statusOf(msgid)).toEqual({ msgid, status: 'read', direction: 'outbound', type: 'template' });
    await expect.poll(() => eventsFor(msgid).length, { timeout: 10_000, interval: 50 }).toBe(3);
    const events = eventsOf<StatusEvent>(hooks.received, 'message.status.updated', (data) => data.msgid === msgid);
    expect(events).toEqual([
      {
        type: 'message.status.updated',
        timestamp: isoAt(1),
        data: { msgid, channelId: whatsapp.channelId, status: 'sent', previousStatus: 'accepted', timestamp: isoAt(1) },
      },
      {
        type: 'message.status.updated',
        timestamp: isoAt(2),
        data: {
          msgid,
          channelId: whatsapp.channelId,
          status: 'delivered',
          previousStatus: 'sent',
          timestamp: isoAt(2),
        },
      },
      {
        type: 'message.status.updated',
        timestamp: isoAt(3),
        data: {
          msgid,
          channelId: whatsapp.channelId,
          status: 'read',
          previousStatus: 'delivered',
          timestamp: isoAt(3),
        },
      },
    ]);
    const hit = hooks.received.find((h) => (h.verified as { data?: StatusEvent } | null)?.data?.msgid === msgid)!;
    expect(hit.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('the same payload twice is stored and applied once: one event', async () => {
    const msgid = await insertOutbound(server.databaseUrl, whatsapp.channelId);
    const [first, second] = [
      await post([{ id: msgid, status: 'delivered' }]),
      await post([{ id: msgid, status: 'delivered' }]),
    ];
    expect([await first.json(), await second.json()]).toMatchObject([
      { data: { duplicate: false } },
      { data: { duplicate: true } },
    ]);
    await applied();
    await expect.poll(() => eventsFor(msgid).length, { timeout: 10_000, interval: 50 }).toBe(1);
    await server.untilIdle();
    expect(eventsFor(msgid)).toHaveLength(1);
    expect((await statusOf(msgid)).status).toBe('delivered');
  });

  it('out of order (read, then delivered, then sent) ends at read, with one event', async () => {
    const msgid = await insertOutbound(server.databaseUrl, whatsapp.channelId);
    for (const [at, status] of [
      [30, 'read'],
      [20, 'delivered'],
      [10, 'sent'],
    ] as const) {
      expect((await post([{ id: msgid, status, at }])).status).toBe(200);
      await applied();
    }
    expect((await statusOf(msgid)).status).toBe('read');
    await expect.poll(() => eventsFor(msgid).length, { timeout: 10_000, interval: 50 }).toBe(1);
    await server.untilIdle();
    expect(eventsFor(msgid).map((event) => [event.data.previousStatus, event.data.status])).toEqual([
      ['accepted', 'read'],
    ]);
  });

  it('failed carries Meta’s error; a later sent changes nothing; a later delivered clears it', async () => {
    const msgid = await insertOutbound(server.databaseUrl, whatsapp.channelId);
    const metaError = { code: 131026, title: 'Message undeliverable' };
    // Undeliverable is about the recipient: sending it again cannot help.
    const error = { ...metaError, retryable: false };
    await post([{ id: msgid, status: 'failed', at: 5, errors: [metaError] }]);
    await expect
      .poll(() => statusOf(msgid), { timeout: 10_000, interval: 50 })
      .toEqual({ msgid, status: 'failed', direction: 'outbound', type: 'template', error });
    await post([{ id: msgid, status: 'sent', at: 4 }]);
    await applied();
    expect((await statusOf(msgid)).error).toEqual(error);

    await post([{ id: msgid, status: 'delivered', at: 9 }]);
    await expect
      .poll(() => statusOf(msgid), { timeout: 10_000, interval: 50 })
      .toEqual({ msgid, status: 'delivered', direction: 'outbound', type: 'template' });
    await expect.poll(() => eventsFor(msgid).length, { timeout: 10_000, interval: 50 }).toBe(2);
    expect(eventsFor(msgid).map((event) => event.data)).toEqual([
      {
        msgid,
        channelId: whatsapp.channelId,
        status: 'failed',
        previousStatus: 'accepted',
        error,
        timestamp: isoAt(5),
      },
      { msgid, channelId: whatsapp.channelId, status: 'delivered', previousStatus: 'failed', timestamp: isoAt(9) },
    ]);
  });

  it(
    'ignores statuses for another phone_number_id, unknown msgids and unknown status values; the rest of the batch ' +
      'applies',
    async () => {
      const [mine, other] = [
        await insertOutbound(server.databaseUrl, whatsapp.channelId),
        await insertOutbound(server.databaseUrl, whatsapp.channelId),
      ];
      const payload = notification(
        {
          wabaId: whatsapp.wabaId,
          changes: [
            messagesChange('999000999000999', { statuses: [{ id: other, status: 'read' }] }),
            { field: 'account_update', value: { event: 'VERIFIED' } },
          ],
        },
        {
          wabaId: whatsapp.wabaId,
          changes: [
            messagesChange(whatsapp.phoneNumberId, {
              statuses: [
                { id: 'wamid.unknown', status: 'read' },
                { id: mine, status: 'warning' },
                { id: mine, status: 'sent', at: 1 },
              ],
            }),
            messagesChange(whatsapp.phoneNumberId, { statuses: [{ id: mine, status: 'delivered', at: 2 }] }),
          ],
        },
      );
      const reply = await postSigned(server.baseUrl, whatsapp, { ...payload, unexpected: { nested: true } });
      expect(reply.status).toBe(200);
      await applied();
      expect((await statusOf(mine)).status).toBe('delivered');
      expect((await statusOf(other)).status).toBe('accepted');
      await expect.poll(() => eventsFor(mine).length, { timeout: 10_000, interval: 50 }).toBe(2);
      expect(eventsFor(other)).toHaveLength(0);
    },
  );

  it('a message of another channel is never touched by this channel’s webhook', async () => {
    const msgid = await insertOutbound(server.databaseUrl, sandboxChannelId);
    await post([{ id: msgid, status: 'read' }]);
    await applied();
    expect(await sql(server.databaseUrl, 'select status from messages where msgid = $1', [msgid])).toEqual([
      { status: 'accepted' },
    ]);
  });

  // An API send goes through the one pipeline (issue #39): its own `accepted` is an event too, from `sending`.
  it('the sandbox provider’s reports send the same event: sending → accepted → sent → delivered', async () => {
    const sent = await server.client(ownerKey).workspace.chat.templates.send({
      channelId: sandboxChannelId,
      to: '15550000009',
      templateName: 'follow_up',
      variables: 'Li',
    });
    const { msgid } = sent.data;
    await expect.poll(() => eventsFor(msgid).length, { timeout: 10_000, interval: 50 }).toBe(3);
    const events = eventsFor(msgid);
    expect(events.map((event) => [event.data.channelId, event.data.previousStatus, event.data.status])).toEqual([
      [sandboxChannelId, 'sending', 'accepted'],
      [sandboxChannelId, 'accepted', 'sent'],
      [sandboxChannelId, 'sent', 'delivered'],
    ]);
    for (const event of events) expect(event.timestamp).toBe(event.data.timestamp);
  });
});
