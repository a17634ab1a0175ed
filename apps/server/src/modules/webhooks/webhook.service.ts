import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '@switchboard/contract';
import { recordWorkspaceEvents } from '../event-stream/index.js';
import type { AttemptOutcome, DeliveryTarget, JobQueue, PendingRow } from '../../kit/jobs.js';
import { DestinationRefusedError, fetchDestination, type DestinationPolicy } from './destination.js';
import { signingSecrets, signWebhook } from './webhook-secrets.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import type { ServiceContext } from '../../kit/context.js';
import type { WebhookSecrets } from './webhook-secret-box.js';
import { recordEndpointHealth, type AttemptedEndpoint } from './webhook-health.js';

/** The job that POSTs one webhook_deliveries row. */
export const WEBHOOK_QUEUE = 'webhook.deliver';

interface WebhookRow extends PendingRow, AttemptedEndpoint {
  webhookId: string;
  payload: Record<string, unknown>;
  url: string;
  /** The current secret and, during a rotation's overlap, the replaced one: each signs. */
  secrets: string[];
  endpointActive: boolean;
}

interface WebhookOutcome extends AttemptOutcome {
  durationMs: number;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if ((error as Error).name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause ? [cause.code, cause.message].filter(Boolean).join(': ') : (error as Error).message;
}

/**
 * One POST. 2xx is delivered; any other status, a timeout or a network error is a failed attempt; a destination
 * the SSRF guard refuses (checked at every attempt: DNS may have changed since) is a final one.
 */
async function post(
  row: WebhookRow,
  timeoutMs: number,
  policy: DestinationPolicy,
  stop: AbortSignal,
): Promise<WebhookOutcome> {
  const body = JSON.stringify(row.payload);
  const started = Date.now();
  try {
    const { status, text } = await fetchDestination(row.url, policy, {
      method: 'POST',
      headers: signWebhook(row.secrets, row.webhookId, body),
      body,
      // A redirect is not a delivery: the receiver must answer at the configured URL.
      redirect: 'manual',
      signal: AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]),
    });
    const ok = status >= 200 && status < 300;
    return {
      ok,
      statusCode: status,
      error: ok ? null : `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`,
      durationMs: Date.now() - started,
    };
  } catch (error) {
    if (error instanceof DestinationRefusedError)
      return { ok: false, statusCode: null, error: error.message, final: true, durationMs: 0 };
    return { ok: false, statusCode: null, error: describeFailure(error, timeoutMs), durationMs: Date.now() - started };
  }
}

/** How deliveries are made: WEBHOOK_TIMEOUT_MS, WEBHOOK_DISABLE_AFTER_HOURS. */
interface DeliverySettings {
  timeoutMs: number;
  disableAfterHours: number;
}

export function webhookTarget(
  settings: DeliverySettings,
  policy: DestinationPolicy,
  sealed: WebhookSecrets,
): DeliveryTarget<WebhookRow, WebhookOutcome> {
  const { timeoutMs } = settings;
  return {
    queue: WEBHOOK_QUEUE,
    concurrency: 4,
    // Half the slots: a platform whose receivers all hang leaves the other half to everyone else.
    shareConcurrency: 2,
    entity: WebhookDelivery,
    doneStatus: 'delivered',
    async load(em, pending) {
      const delivery = await em.findOne(WebhookDelivery, pending, { populate: ['endpoint'] });
      if (!delivery) return null;
      const { endpoint } = delivery;
      return {
        id: delivery.id,
        webhookId: delivery.webhookId,
        payload: delivery.payload,
        attempts: delivery.attempts,
        createdAt: delivery.createdAt.toISOString(),
        url: endpoint.url,
        endpointId: endpoint.id,
        platformId: endpoint.platform.id,
        secrets: signingSecrets({
          secret: sealed.open(endpoint.id, endpoint.secretCiphertext),
          previousSecret:
            endpoint.previousSecretCiphertext && sealed.open(endpoint.id, endpoint.previousSecretCiphertext),
          previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
        }),
        endpointActive: endpoint.isActive,
      };
    },
    async attempt(row, signal) {
      if (!row.endpointActive) return { ok: false, error: 'endpoint disabled', final: true, durationMs: 0 };
      return post(row, timeoutMs, policy, signal);
    },
    outcomeColumns: (outcome, { now, nextAttemptAt }) => ({
      lastStatusCode: outcome.statusCode ?? null,
      nextAttemptAt,
      deliveredAt: outcome.ok ? now : null,
    }),
    async recorded(tx, row, outcome, now, jobs) {
      // A disabled endpoint's pending deliveries end without an attempt: nothing to learn about its health.
      if (row.endpointActive) await recordEndpointHealth(tx, jobs, row, outcome.ok, now, settings.disableAfterHours);
      await tx.insert(WebhookAttempt, {
        id: randomUUID(),
        delivery: row.id,
        attempt: row.attempts + 1,
        statusCode: outcome.statusCode ?? null,
        error: outcome.error ?? null,
        durationMs: outcome.durationMs,
        createdAt: now,
      });
    },
  };
}

/**
 * The one place every event is emitted: records each for the live stream (events/stream), and one delivery per
 * subscribed, active endpoint of the platform, queued, all inside the caller's transaction. Its webhook-id
 * (`msg_…`) is fixed here and reused by every retry. The body is typed by the event's schema in the contract
 * (WEBHOOK_EVENTS), which the OpenAPI and the SDK publish. Many events of one platform (a batch of status reports)
 * cost one lookup of the endpoints and one insert of their stream records.
 */
export async function queueWebhookEvents(
  { em: tx }: ServiceContext,
  jobs: JobQueue,
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
  for (const event of events) {
    for (const endpoint of endpoints.filter((each) => each.events.includes(event.type))) {
      const id = randomUUID();
      await tx.insert(WebhookDelivery, {
        id,
        endpoint: endpoint.id,
        webhookId: `msg_${randomUUID().replaceAll('-', '')}`,
        eventType: event.type,
        payload: event,
      });
      await jobs.enqueue(tx, WEBHOOK_QUEUE, { id, attempt: 0, share: platformId });
    }
  }
}

/** One event (see queueWebhookEvents). */
export const queueWebhookEvent = (ctx: ServiceContext, jobs: JobQueue, platformId: string, event: WebhookEvent) =>
  queueWebhookEvents(ctx, jobs, platformId, [event]);
