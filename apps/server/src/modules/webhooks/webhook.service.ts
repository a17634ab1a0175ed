import type { EntityManager } from '@mikro-orm/postgresql';
import { Webhook } from 'standardwebhooks';
import { isoTimestamp } from '../../db/sql.js';
import type { AttemptOutcome, DeliveryTarget, PendingRow } from '../../events/delivery.js';
import { QUEUES } from '../../events/queue.js';

/**
 * Standard Webhooks headers for one POST. The `standardwebhooks` package is the reference implementation
 * receivers verify with, so signing with it (rather than a hand-rolled HMAC) guarantees they agree.
 * The timestamp is the attempt's, so a retry hours later still passes the receiver's freshness check;
 * `webhook-id` stays the delivery's, so receivers can drop repeats.
 */
function signWebhook(secret: string, webhookId: string, body: string, now = new Date()): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Switchboard-Webhooks/1.0',
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, now, body),
  };
}

interface WebhookRow extends PendingRow {
  webhookId: string;
  payload: Record<string, unknown>;
  url: string;
  secret: string;
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

/** One POST. 2xx is delivered; any other status, a timeout or a network error is a failed attempt. */
async function post(row: WebhookRow, timeoutMs: number, stop: AbortSignal): Promise<WebhookOutcome> {
  const body = JSON.stringify(row.payload);
  const started = Date.now();
  try {
    const response = await fetch(row.url, {
      method: 'POST',
      headers: signWebhook(row.secret, row.webhookId, body),
      body,
      // A redirect is not a delivery: the receiver must answer at the configured URL.
      redirect: 'manual',
      signal: AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]),
    });
    const text = await response.text().catch(() => '');
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      error: ok ? null : `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
      durationMs: Date.now() - started,
    };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeFailure(error, timeoutMs), durationMs: Date.now() - started };
  }
}

export function webhookTarget(timeoutMs: number): DeliveryTarget<WebhookRow, WebhookOutcome> {
  return {
    queue: QUEUES.webhook,
    async load(em, job) {
      const [row] = await em.execute<WebhookRow[]>(
        `select d.id, d.webhook_id as "webhookId", d.payload, d.attempts, ${isoTimestamp('d.created_at', 'createdAt')},
                e.url, e.secret, e.is_active as "endpointActive"
           from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
          where d.id = ? and d.status = 'pending' and d.attempts = ?`,
        [job.id, job.attempt],
      );
      return row ?? null;
    },
    async attempt(row, signal) {
      if (!row.endpointActive) return { ok: false, error: 'endpoint disabled', final: true, durationMs: 0 };
      return post(row, timeoutMs, signal);
    },
    async record(tx: EntityManager, row, outcome, status, nextAttemptAt) {
      const updated = await tx.execute(
        `update webhook_deliveries
            set attempts = attempts + 1, status = ?, last_status_code = ?, last_error = ?, next_attempt_at = ?,
                delivered_at = case when ?::boolean then now() end, updated_at = now()
          where id = ? and attempts = ? returning id`,
        [status === 'done' ? 'delivered' : status, outcome.statusCode ?? null, outcome.error ?? null, nextAttemptAt, outcome.ok, row.id, row.attempts],
      );
      if (updated.length !== 1) return false;
      await tx.execute(
        `insert into webhook_attempts (delivery_id, attempt, status_code, error, duration_ms) values (?, ?, ?, ?, ?)`,
        [row.id, row.attempts + 1, outcome.statusCode ?? null, outcome.error ?? null, outcome.durationMs],
      );
      return true;
    },
  };
}
