import { describe, expect } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '@switchboard/client';
import { Webhook } from 'standardwebhooks';
import { sql } from '../helpers/database.js';
import { expectInvalid } from '../helpers/expect.js';
import { createTenant, type Tenant } from '../helpers/fixtures.js';
import { test as base } from '../helpers/test.js';
import {
  newWebhookSecret,
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../helpers/receivers.js';

const HOUR_MS = 3_600_000;
const signaturesOf = (hit: ReceivedWebhook) => String(hit.headers['webhook-signature']).split(' ');
const verifies = (secret: string, hit: ReceivedWebhook) => {
  try {
    new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/**
 * A tenant of its own per test (every endpoint of a platform receives each of its closes), an endpoint created
 * through the API for a local receiver, and closing the tenant's ticket as the event source.
 */
const test = base
  .extend('receivers', ({}, { onCleanup }) => {
    const started: WebhookReceiver[] = [];
    onCleanup(() => Promise.all(started.map((receiver) => receiver.close())).then(() => undefined));
    // The receiver's own check uses a secret of its own; the tests verify with the endpoint's secrets themselves.
    return async (answer?: (n: number) => number | 'hang') => {
      const receiver = await startWebhookReceiver(newWebhookSecret(), answer);
      started.push(receiver);
      return receiver;
    };
  })
  .extend('hooked', ({ server }) => async (name: string, url: string) => {
    const tenant = await createTenant(server, name);
    const sb = server.client(tenant.ownerKey).platform;
    const reply = await sb.webhooks.manage({ platformId: tenant.platformId, url, events: ['ticket.closed'] });
    const endpoint = reply.data as WebhookEndpoint & { secret: string };
    const ticketId = tenant.ids.tickets!.t1!.id;
    let closes = 0;
    return {
      tenant,
      endpoint,
      sb,
      manage: (params: Record<string, unknown>) =>
        sb.webhooks.manage({ platformId: tenant.platformId, ...params } as never),
      deliveries: (params: Record<string, unknown> = {}) =>
        sb.webhooks.deliveries({ platformId: tenant.platformId, endpointId: endpoint.id, ...params }),
      /** Closes the ticket (reopening it first after the first time): one `ticket.closed` event. */
      async close() {
        if (closes++ > 0) await sb.tickets.manage({ platformId: tenant.platformId, ticketId, status: 'open' });
        await sb.tickets.manage({ platformId: tenant.platformId, ticketId, status: 'closed' });
      },
    };
  });

test.override('serverEnv', {
  ALLOW_HTTP_WEBHOOKS: 'true',
  DELIVERY_RETRY_SCHEDULE: '1',
  // Shorter than the 1 s retry step: a failed attempt is final, so "failed" is reached at once.
  DELIVERY_RETRY_HOURS: '0.0001',
});

const finished = (delivery: WebhookDelivery | undefined) => delivery?.status !== 'pending' && delivery?.attempts.length;

describe('webhook secret rotation', () => {
  test('signs with both secrets during the 24 h overlap, then with the new one only', async ({
    server,
    receivers,
    hooked,
  }) => {
    const receiver = await receivers();
    const hook = await hooked('Rotate', receiver.url);
    const first = hook.endpoint.secret;

    await hook.close();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    expect(signaturesOf(receiver.received[0]!)).toHaveLength(1);
    expect(verifies(first, receiver.received[0]!)).toBe(true);

    const rotated = await hook.manage({ endpointId: hook.endpoint.id, rotateSecret: true });
    expect(rotated.message).toBe('Webhook secret rotated successfully');
    const { secret: second, previousSecretExpiresAt } = rotated.data as WebhookEndpoint & { secret: string };
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const overlapLeft = Date.parse(previousSecretExpiresAt!) - Date.now();
    expect(overlapLeft).toBeGreaterThan(23 * HOUR_MS);
    expect(overlapLeft).toBeLessThanOrEqual(24 * HOUR_MS);

    await hook.close();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    const during = receiver.received[1]!;
    expect(signaturesOf(during)).toEqual([expect.stringMatching(/^v1,/), expect.stringMatching(/^v1,/)]);
    expect({
      first: verifies(first, during),
      second: verifies(second, during),
      stranger: verifies(newWebhookSecret(), during),
    }).toEqual({ first: true, second: true, stranger: false });

    // The overlap is over (as it will be 24 h later): the replaced secret stops signing.
    await sql(
      server.databaseUrl,
      `update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = $1`,
      [hook.endpoint.id],
    );
    const listed = (await hook.sb.webhooks.list({ platformId: hook.tenant.platformId })).data.find(
      (e) => e.id === hook.endpoint.id,
    );
    expect(listed?.previousSecretExpiresAt).toBeNull();
    await hook.close();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(3);
    const after = receiver.received[2]!;
    expect(signaturesOf(after)).toHaveLength(1);
    expect({ first: verifies(first, after), second: verifies(second, after) }).toEqual({ first: false, second: true });
  });
});

describe('webhooks/deliveries and redelivery', () => {
  test('the log shows each delivery and its attempts; redeliver sends again with the same webhook-id', async ({
    receivers,
    hooked,
  }) => {
    const receiver = await receivers();
    const hook = await hooked('Redeliver', receiver.url);
    await hook.close();
    await expect.poll(async () => finished((await hook.deliveries()).data[0]), { timeout: 10_000 }).toBeTruthy();
    const [delivery] = (await hook.deliveries()).data;
    const webhookId = receiver.received[0]!.headers['webhook-id'];
    expect(delivery).toEqual({
      id: expect.any(String),
      endpointId: hook.endpoint.id,
      eventType: 'ticket.closed',
      webhookId,
      status: 'delivered',
      nextAttemptAt: null,
      deliveredAt: expect.any(String),
      attempts: [
        { attempt: 1, statusCode: 200, error: null, durationMs: expect.any(Number), createdAt: expect.any(String) },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    // The form before `action` (deprecated) still redelivers.
    const redelivered = await hook.manage({ redeliver: delivery!.id });
    expect(redelivered.message).toBe('Redelivery queued');
    expect(redelivered.data).toMatchObject({
      id: delivery!.id,
      webhookId,
      status: 'pending',
      deliveredAt: null,
      attempts: delivery!.attempts,
    });
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    const again = receiver.received[1]!;
    expect(again.headers['webhook-id']).toBe(webhookId);
    expect(again.body).toBe(receiver.received[0]!.body);
    expect(verifies(hook.endpoint.secret, again)).toBe(true);
    await expect.poll(async () => (await hook.deliveries()).data[0]?.attempts.length, { timeout: 10_000 }).toBe(2);
    expect((await hook.deliveries()).data[0]).toMatchObject({
      status: 'delivered',
      attempts: [
        { attempt: 1, statusCode: 200 },
        { attempt: 2, statusCode: 200 },
      ],
    });
  });

  test('a failed delivery can be redelivered once the endpoint is enabled; a pending one cannot', async ({
    receivers,
    hooked,
  }) => {
    const receiver = await receivers((n) => (n === 1 ? 500 : n === 2 ? 'hang' : 200));
    const hook = await hooked('Failing', receiver.url);
    await hook.close();
    await expect.poll(async () => (await hook.deliveries()).data[0]?.status, { timeout: 10_000 }).toBe('failed');
    const [failed] = (await hook.deliveries()).data;
    expect(failed).toMatchObject({
      nextAttemptAt: null,
      deliveredAt: null,
      attempts: [{ attempt: 1, statusCode: 500, error: 'HTTP 500: receiver says no' }],
    });

    await hook.manage({ endpointId: hook.endpoint.id, enabled: false });
    await expectInvalid(
      hook.manage({ action: 'redeliver', deliveryId: failed!.id }),
      'deliveryId',
      'the endpoint is disabled; enable it first',
    );
    await hook.close();
    expect((await hook.deliveries()).pagination.total).toBe(1);

    await hook.manage({ endpointId: hook.endpoint.id, enabled: true });
    await hook.manage({ action: 'redeliver', deliveryId: failed!.id });
    // The receiver holds the second request: the attempt is under way and the delivery pending.
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    await expectInvalid(
      hook.manage({ action: 'redeliver', deliveryId: failed!.id }),
      'deliveryId',
      'this delivery is still pending',
    );
    receiver.release(200);
    await expect.poll(async () => (await hook.deliveries()).data[0]?.status, { timeout: 10_000 }).toBe('delivered');
    expect((await hook.deliveries()).data[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
  });

  test('pages newest first and filters by status', async ({ receivers, hooked }) => {
    const receiver = await receivers((n) => (n === 2 ? 503 : 200));
    const hook = await hooked('Paging', receiver.url);
    for (let i = 0; i < 3; i++) {
      await hook.close();
      await expect.poll(async () => finished((await hook.deliveries()).data[0]), { timeout: 10_000 }).toBeTruthy();
    }
    const all = await hook.deliveries();
    expect(all.pagination).toEqual({ page: 1, limit: 20, total: 3, pages: 1 });
    expect(all.data.map((d) => d.status)).toEqual(['delivered', 'failed', 'delivered']);
    expect(new Set(all.data.map((d) => d.webhookId)).size).toBe(3);
    const second = await hook.deliveries({ page: 2, limit: 1 });
    expect(second.pagination).toEqual({ page: 2, limit: 1, total: 3, pages: 3 });
    expect(second.data.map((d) => d.id)).toEqual([all.data[1]!.id]);
    expect((await hook.deliveries({ status: 'failed' })).data.map((d) => d.id)).toEqual([all.data[1]!.id]);
    await expectInvalid(hook.deliveries({ limit: 101 }), 'limit', 'must be at most 100');
    await expectInvalid(hook.deliveries({ status: 'lost' }), 'status', 'must be one of pending, delivered, failed');
  });
});

describe('ALLOW_HTTP_WEBHOOKS=true', () => {
  test('allows http:// to 127.0.0.1 and localhost only, and private addresses over https', async ({ server }) => {
    const tenant: Tenant = await createTenant(server, 'Local');
    const manage = (url: string) =>
      server
        .client(tenant.ownerKey)
        .platform.webhooks.manage({ platformId: tenant.platformId, url, events: ['ticket.closed'] });
    expect((await manage('http://localhost:9/hooks')).success).toBe(true);
    expect((await manage('https://10.0.0.5/hooks')).success).toBe(true);
    await expectInvalid(manage('http://10.0.0.5/hooks'), 'url', 'http:// is only allowed to localhost or 127.0.0.1');
  });
});
