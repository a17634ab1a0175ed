import { createServer, type Socket } from 'node:net';
import { receiveSandboxMessage } from '@switchboard/server';
import { afterAll, expect } from 'vitest';
import { queueTrigger } from '../../apps/server/src/kit/triggers.js';
import { sql } from '../helpers/database.js';
import { createTenant } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { test } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../helpers/receivers.js';
import { startLoadReceiver, type LoadReceiver } from '../webhooks/webhook-lanes.js';
import {
  connectChannel,
  messagesChange,
  notification,
  postSigned,
  SECRETS_KEY,
} from '../whatsapp-inbound/inbound-fixture.js';

/**
 * One tenant's backlog never holds another's work behind it (issue #31, "Fair shares"): a platform with hundreds of
 * deliveries to receivers that never answer, and another platform's one event, through real HTTP receivers.
 */

/** Graph as seen from a channel whose sends never come back: connections accepted, nothing ever answered. */
const silentSockets = new Set<Socket>();
const silentGraph = createServer((socket) => {
  silentSockets.add(socket.on('close', () => silentSockets.delete(socket)));
});
await new Promise<void>((resolve) => silentGraph.listen(0, '127.0.0.1', resolve));
afterAll(() => {
  for (const socket of silentSockets) socket.destroy();
  silentGraph.close();
});

test.override('serverEnv', {
  ALLOW_HTTP_WEBHOOKS: 'true',
  // Eight POSTs at once on this instance: a platform may take four.
  WEBHOOK_CONCURRENCY: '8',
  SECRETS_KEY,
  WHATSAPP_GRAPH_URL: `http://127.0.0.1:${(silentGraph.address() as { port: number }).port}`,
});

/** Jobs of `queue` running now for one share (a platform, a channel), on every instance together. */
async function runningFor(server: TestServer, queue: string, share: string): Promise<number> {
  const [running] = await sql<{ count: number }>(
    server.databaseUrl,
    `select count(*)::int as count from pgboss.job where name = $1 and state = 'active' and group_id = $2`,
    [queue, share],
  );
  return running!.count;
}

const ENDPOINTS_OF_A = 20;
const MESSAGES_TO_A = 25;

/** A customer's message on a sandbox channel: one `message.received` delivery per subscribed endpoint. */
const customerWrites = (server: TestServer, channelId: string, n: number) =>
  receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
    channelId,
    from: `1555000${String(n).padStart(4, '0')}`,
    text: `message ${n}`,
  });

async function subscribe(server: TestServer, ownerKey: string, platformId: string, url: string) {
  await server.client(ownerKey).platform.webhooks.manage({ platformId, url, events: ['message.received'] });
}

test(
  'a platform whose 500 deliveries time out does not delay another platform’s event',
  { timeout: 120_000 },
  async ({ server }) => {
    const receivers: (WebhookReceiver | LoadReceiver)[] = [];
    try {
      const silent = await startLoadReceiver(() => 'hang');
      const answering = await startWebhookReceiver(newWebhookSecret());
      receivers.push(silent, answering);
      const a = await createTenant(server, 'Noisy');
      const b = await createTenant(server, 'Quiet');
      for (let i = 0; i < ENDPOINTS_OF_A; i++)
        await subscribe(server, a.ownerKey, a.platformId, `${silent.url}?n=${i}`);
      await subscribe(server, b.ownerKey, b.platformId, answering.url);

      for (let n = 0; n < MESSAGES_TO_A; n++) await customerWrites(server, a.mainChannelId, n);
      const [queued] = await sql<{ count: number }>(
        server.databaseUrl,
        `select count(*)::int as count from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where e.platform_id = $1 and d.status = 'pending'`,
        [a.platformId],
      );
      expect(queued!.count).toBe(ENDPOINTS_OF_A * MESSAGES_TO_A);
      // A's deliveries hold connections to the silent receiver now.
      await expect.poll(() => silent.open, { timeout: 10_000 }).toBeGreaterThan(0);

      const sentAt = Date.now();
      await customerWrites(server, b.mainChannelId, 1);
      await expect.poll(() => answering.received.length, { timeout: 15_000, interval: 100 }).toBe(1);
      expect(Date.now() - sentAt).toBeLessThan(15_000);
      // A never held more than its share (half) of the instance's eight slots, however many endpoints it has.
      expect(silent.peak).toBeGreaterThan(0);
      expect(silent.peak).toBeLessThanOrEqual(4);
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.close()));
    }
  },
);

test(
  'a channel whose 500 automation runs hang does not delay another channel’s run',
  { timeout: 180_000 },
  async ({ server }) => {
    const a = await createTenant(server, 'Hanging');
    const b = await createTenant(server, 'Prompt');
    const whatsapp = await connectChannel({ em: server.database.orm.em.fork() }, a.mainChannelId);
    const reply = async (channelId: string, key: string) =>
      server.client(key).workspace.automations.manage({
        channelId,
        action: 'create',
        name: 'Reply',
        trigger: { event: 'message.received' },
        actions: [{ type: 'send_text', text: 'Thanks, we are on it.' }],
      });
    await reply(a.mainChannelId, a.ownerKey);
    await reply(b.mainChannelId, b.ownerKey);

    // A customer writes to A through Meta's webhook (the window opens), then 499 more events of A are queued.
    const from = '15550009999';
    const change = messagesChange(whatsapp.phoneNumberId, { messages: [{ id: 'wamid.hang0', from, text: 'hello' }] });
    expect(
      (await postSigned(server.baseUrl, whatsapp, notification({ wabaId: whatsapp.wabaId, changes: [change] }))).status,
    ).toBe(200);
    const contactOf = async () =>
      (
        await sql<{ id: string }>(server.databaseUrl, 'select id from contacts where channel_id = $1 and phone = $2', [
          a.mainChannelId,
          from,
        ])
      )[0]?.id;
    await expect.poll(contactOf, { timeout: 20_000 }).toBeDefined();
    const contactId = (await contactOf())!;
    await server.database.orm.em.fork().transactional(async (tx) => {
      for (let n = 1; n < 500; n++)
        await queueTrigger(tx, server.jobs, {
          event: 'message.received',
          eventId: `wamid.hang${n}`,
          channelId: a.mainChannelId,
          contactId,
          text: 'hello again',
        });
    });
    await expect
      .poll(() => runningFor(server, 'automation.trigger', a.mainChannelId), { timeout: 20_000 })
      .toBeGreaterThan(0);

    const sentAt = Date.now();
    await receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
      channelId: b.mainChannelId,
      from: '15550008888',
      text: 'hi',
    });
    const runsOfB = async () =>
      (
        await sql<{ outcome: string }>(
          server.databaseUrl,
          'select outcome from automation_runs where channel_id = $1',
          [b.mainChannelId],
        )
      ).map((run) => run.outcome);
    await expect.poll(runsOfB, { timeout: 15_000, interval: 100 }).toEqual(['succeeded']);
    expect(Date.now() - sentAt).toBeLessThan(15_000);
    expect(await runningFor(server, 'automation.trigger', a.mainChannelId)).toBeLessThanOrEqual(2);
  },
);
