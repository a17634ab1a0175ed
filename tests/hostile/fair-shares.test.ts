import { receiveSandboxMessage } from '@switchboard/server';
import { expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { createTenant } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { test } from '../helpers/test.js';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../platform/receivers.js';

/**
 * One tenant's backlog never holds another's work behind it (issue #31, "Fair shares"): a platform with hundreds of
 * deliveries to receivers that never answer, and another platform's one event, through real HTTP receivers.
 */
test.override('serverEnv', { ALLOW_HTTP_WEBHOOKS: 'true' });

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
    const receivers: WebhookReceiver[] = [];
    try {
      const silent = await startWebhookReceiver(newWebhookSecret(), () => 'hang');
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
      await expect.poll(() => silent.received.length, { timeout: 10_000 }).toBeGreaterThan(0);

      const sentAt = Date.now();
      await customerWrites(server, b.mainChannelId, 1);
      await expect.poll(() => answering.received.length, { timeout: 15_000, interval: 100 }).toBe(1);
      expect(Date.now() - sentAt).toBeLessThan(15_000);
      // A holds no more than its share of the worker's slots, on every instance together.
      const [running] = await sql<{ count: number }>(
        server.databaseUrl,
        `select count(*)::int as count from pgboss.job where name = 'webhook.deliver' and state = 'active'
          and group_id = $1`,
        [a.platformId],
      );
      expect(running!.count).toBeGreaterThan(0);
      expect(running!.count).toBeLessThanOrEqual(2);
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.close()));
    }
  },
);
