import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '@switchboard/contract';
import { recordWorkspaceEvents } from '../event-stream/index.js';
import type { JobQueue } from '../../kit/jobs.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { notifyDispatchers } from './webhook-lanes.js';
import type { ServiceContext } from '../../kit/context.js';

/**
 * The one place every event is emitted: records each for the live stream (events/stream), and one delivery per
 * subscribed, active endpoint of the platform, due at once, all inside the caller's transaction: a delivery exists
 * if, and only if, it commits, and the webhook dispatcher (webhook-dispatcher.ts) claims it from its table. Its
 * webhook-id (`msg_…`) is fixed here and reused by every retry. The body is typed by the event's schema in the
 * contract (WEBHOOK_EVENTS), which the OpenAPI and the SDK publish. Many events of one platform (a batch of status
 * reports) cost one lookup of the endpoints, one insert of their stream records and one of their deliveries.
 * (`_jobs`: deliveries no longer go through the job queue; the callers' signature is kept for now.)
 */
export async function queueWebhookEvents(
  { em: tx }: ServiceContext,
  _jobs: JobQueue,
  platformId: string,
  events: readonly WebhookEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await recordWorkspaceEvents({ em: tx }, platformId, events);
  const types = [...new Set(events.map((event) => event.type))];
  const endpoints = await tx.find(
    WebhookEndpoint,
    { platform: platformId, isActive: true, events: { $overlap: types } },
    { fields: ['id', 'events'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const now = new Date();
  const deliveries = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpoint.events.includes(event.type))
      .map((endpoint) => ({
        id: randomUUID(),
        endpoint: endpoint.id,
        webhookId: `msg_${randomUUID().replaceAll('-', '')}`,
        eventType: event.type,
        payload: event,
        nextAttemptAt: now,
      })),
  );
  if (deliveries.length === 0) return;
  await tx.insertMany(WebhookDelivery, deliveries);
  await notifyDispatchers(tx);
}

/** One event (see queueWebhookEvents). */
export const queueWebhookEvent = (ctx: ServiceContext, jobs: JobQueue, platformId: string, event: WebhookEvent) =>
  queueWebhookEvents(ctx, jobs, platformId, [event]);
