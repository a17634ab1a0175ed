import { randomUUID } from 'node:crypto';
import { LockMode, type Loaded } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  Pagination,
  WebhookDeliveriesValues,
  WebhookDelivery as WebhookDeliveryView,
  WebhookEvent,
  WebhookEventType,
} from '@switchboard/contract';
import { ForbiddenError, NotFoundError, ValidationError } from '../../kit/errors.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { findEndpoint } from './webhook-endpoints.service.js';
import { notifyDispatchers } from './webhook-lanes.js';
import type { ServiceContext } from '../../kit/context.js';

export const REDELIVERY_QUEUED = 'Redelivery queued';

/**
 * One delivery per event and subscribed, active endpoint of the platform, due at once, inside the caller's
 * transaction: a delivery exists if, and only if, it commits, and the webhook dispatcher (webhook-dispatcher.ts)
 * claims it from its table. Its webhook-id (`msg_…`) is fixed here and reused by every retry. Many events of one
 * platform (a batch of status reports) cost one lookup of the endpoints and one insert.
 */
export async function queueDeliveries(
  { em: tx }: ServiceContext,
  platformId: string,
  events: readonly WebhookEvent[],
): Promise<void> {
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

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A delivery as the log reads it: without its payload, which can be large. */
type LoggedDelivery = Loaded<WebhookDelivery, never, never, 'payload'>;

function deliveryView(delivery: LoggedDelivery, attempts: WebhookAttempt[]): WebhookDeliveryView {
  return {
    id: delivery.id,
    endpointId: delivery.endpoint.id,
    eventType: delivery.eventType as WebhookEventType,
    webhookId: delivery.webhookId,
    status: delivery.status,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    deliveredAt: iso(delivery.deliveredAt),
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      statusCode: a.statusCode ?? null,
      error: a.error ?? null,
      durationMs: a.durationMs,
      createdAt: a.createdAt.toISOString(),
    })),
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
  };
}

/** The deliveries with their attempts (one query for all attempts of the page), in the order given. */
async function withAttempts(em: EntityManager, deliveries: LoggedDelivery[]): Promise<WebhookDeliveryView[]> {
  const attempts = deliveries.length
    ? await em.find(WebhookAttempt, { delivery: { $in: deliveries.map((d) => d.id) } }, { orderBy: { attempt: 'asc' } })
    : [];
  return deliveries.map((delivery) =>
    deliveryView(
      delivery,
      attempts.filter((a) => a.delivery.id === delivery.id),
    ),
  );
}

/** webhooks/deliveries: an endpoint's delivery log, newest first, a page at a time. */
export async function listDeliveries(
  { em }: ServiceContext,
  platformId: string,
  params: Pick<WebhookDeliveriesValues, 'endpointId' | 'status' | 'page' | 'limit'>,
): Promise<{ data: WebhookDeliveryView[]; pagination: Pagination }> {
  await findEndpoint({ em }, platformId, params.endpointId);
  const { page, limit } = params;
  const [deliveries, total] = await em.findAndCount(
    WebhookDelivery,
    { endpoint: params.endpointId, ...(params.status && { status: params.status }) },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset: (page - 1) * limit, exclude: ['payload'] },
  );
  return {
    data: await withAttempts(em, deliveries),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}

/**
 * Queues one fresh attempt of a finished (delivered or failed) delivery, with the same `webhook-id` and payload.
 * The row lock orders it with the worker recording an attempt, so two redeliveries, or a redelivery and a
 * retry, never run at once. Should the fresh attempt fail, retries follow only while the event's retry window is
 * still open.
 */
export async function redeliver(
  { em }: ServiceContext,
  platformId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  return em.transactional(async (tx) => {
    const delivery = await tx.findOne(WebhookDelivery, deliveryId, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      exclude: ['payload'],
    });
    if (!delivery) throw new NotFoundError('delivery_not_found', `Webhook delivery ${deliveryId} not found.`);
    const endpoint = await tx.findOneOrFail(WebhookEndpoint, delivery.endpoint.id, {
      fields: ['platform', 'isActive'],
    });
    if (endpoint.platform.id !== platformId)
      throw new ForbiddenError('This webhook delivery belongs to another platform.');
    if (!endpoint.isActive) throw ValidationError.field('deliveryId', 'the endpoint is disabled; enable it first');
    if (delivery.status === 'pending') {
      throw ValidationError.field(
        'deliveryId',
        'this delivery is still pending (an attempt is under way or scheduled); redeliver it once it is delivered or ' +
          'failed',
      );
    }
    // Due now: the webhook dispatcher takes it up (as a retry, ahead of any backlog of first attempts).
    tx.assign(delivery, { status: 'pending', nextAttemptAt: new Date(), deliveredAt: null });
    await tx.flush();
    return (await withAttempts(tx, [delivery]))[0]!;
  });
}
