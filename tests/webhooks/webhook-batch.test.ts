import { receiveSandboxMessage } from '@switchboard/server';
import { verifyWebhook, verifyWebhookBatch, WebhookVerificationError } from '@switchboard/client';
import { verifyWebhookBatch as verifyLight } from '../../packages/client/src/webhooks-entry.js';
import { expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';
import { startLoadReceiver, type LoadReceiver } from './webhook-lanes.js';

/** `batch: true` on webhooks/manage: one POST carries up to 100 events as a JSON array, signed once. */
test.override('serverEnv', { ALLOW_HTTP_WEBHOOKS: 'true' });

const MESSAGES = 150;
let receiver: LoadReceiver | undefined;
test.afterAll(() => receiver?.close());

test(
  'delivers events in signed batches the SDK verifies, each event once with its own webhookId',
  {
    timeout: 120_000,
  },
  async ({ server, acme }) => {
    // A receiver slow enough (300 ms) that events queue up behind its first POSTs and go out together.
    receiver = await startLoadReceiver(() => 300);
    const { data: endpoint } = await server.client(acme.ownerKey).platform.webhooks.manage({
      platformId: acme.platformId,
      url: receiver.url,
      events: ['message.received'],
      batch: true,
    });
    expect(endpoint).toMatchObject({ batch: true, enabled: true });
    for (let n = 0; n < MESSAGES; n++)
      await receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
        channelId: acme.mainChannelId,
        from: `1555100${String(n).padStart(4, '0')}`,
        text: `batched ${n}`,
      });
    await server.untilIdle(60_000);

    const posts = receiver.hits.map((hit) => ({
      hit,
      events: verifyWebhookBatch(hit.body, hit.headers, endpoint.secret!),
    }));
    const events = posts.flatMap((post) => post.events);
    expect(events.map((event) => event.type === 'message.received' && event.data.text)).toEqual(
      Array.from({ length: MESSAGES }, (_, n) => `batched ${n}`),
    );
    expect(new Set(events.map((event) => event.webhookId)).size).toBe(MESSAGES);
    expect(Math.max(...posts.map((post) => post.events.length))).toBeGreaterThan(1);
    expect(Math.max(...posts.map((post) => post.events.length))).toBeLessThanOrEqual(100);
    // The body is the JSON array of the events, each with its webhookId; the header names the batch.
    const [first] = posts;
    expect(JSON.parse(first!.hit.body)).toEqual(first!.events);
    expect(first!.hit.headers['webhook-id']).toMatch(/^batch_[0-9a-f]{32}$/);
    // The lighter entry reads it the same; the single-event verifier refuses it and says what to use.
    expect(verifyLight(first!.hit.body, first!.hit.headers, endpoint.secret!)).toEqual(first!.events);
    expect(() => verifyWebhook(first!.hit.body, first!.hit.headers, endpoint.secret!)).toThrow(
      expect.objectContaining({ reason: 'invalid_payload', message: expect.stringMatching(/verifyWebhookBatch/) }),
    );
    expect(() =>
      verifyWebhookBatch(first!.hit.body, first!.hit.headers, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    ).toThrow(WebhookVerificationError);

    // Every delivery's log has its one attempt, under the webhookId the receiver saw.
    const rows = await sql<{ webhook_id: string; status: string; attempts: number }>(
      server.databaseUrl,
      'select webhook_id, status, attempts from webhook_deliveries where endpoint_id = $1',
      [endpoint.id],
    );
    expect(rows.map((row) => row.webhook_id).sort()).toEqual(events.map((event) => event.webhookId).sort());
    expect(rows.every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
  },
);
