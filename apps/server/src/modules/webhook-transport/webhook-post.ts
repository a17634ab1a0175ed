import { createHash } from 'node:crypto';
import { DestinationConnection, DestinationRefusedError } from './destination.js';
import { signWebhook } from './webhook-secrets.js';

/** One delivery as a POST needs it. */
export interface PostedDelivery {
  webhookId: string;
  payload: Record<string, unknown>;
}

/** Where a POST goes: the URL, the secrets that sign it, and whether its deliveries go as one batch. */
export interface PostTarget {
  url: string;
  secrets: readonly string[];
  batch: boolean;
}

/** What one POST came to; `final`: retrying cannot help (the destination is refused). */
export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  final: boolean;
  durationMs: number;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if ((error as Error).name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause ? [cause.code, cause.message].filter(Boolean).join(': ') : (error as Error).message;
}

/**
 * The body and `webhook-id` of a POST: one delivery is its event and its own id; a batch is the JSON array of its
 * events, each with its `webhookId`, under an id derived from theirs (the same batch retried keeps its id).
 */
function postBody(deliveries: readonly PostedDelivery[], batch: boolean): { webhookId: string; body: string } {
  if (!batch) return { webhookId: deliveries[0]!.webhookId, body: JSON.stringify(deliveries[0]!.payload) };
  const ids = deliveries.map((delivery) => delivery.webhookId);
  const digest = createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 32);
  const events = deliveries.map(({ webhookId, payload }) => ({ webhookId, ...payload }));
  return { webhookId: `batch_${digest}`, body: JSON.stringify(events) };
}

/**
 * One POST of one delivery or a batch. 2xx is delivered; any other status, a timeout or a network error is a failed
 * attempt; a destination the SSRF guard refuses (checked at every POST: DNS may have changed since) is a final one.
 */
export async function postDeliveries(
  connection: DestinationConnection,
  target: PostTarget,
  deliveries: readonly PostedDelivery[],
  timeoutMs: number,
  stop: AbortSignal,
): Promise<PostOutcome> {
  const { webhookId, body } = postBody(deliveries, target.batch);
  const started = Date.now();
  try {
    const { status, text } = await connection.fetch(target.url, {
      method: 'POST',
      headers: signWebhook(target.secrets, webhookId, body),
      body,
      // A redirect is not a delivery: the receiver must answer at the configured URL.
      redirect: 'manual',
      signal: AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]),
    });
    const ok = status >= 200 && status < 300;
    const error = ok ? null : `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
    return { ok, statusCode: status, error, final: false, durationMs: Date.now() - started };
  } catch (error) {
    if (error instanceof DestinationRefusedError)
      return { ok: false, statusCode: null, error: error.message, final: true, durationMs: 0 };
    const durationMs = Date.now() - started;
    return { ok: false, statusCode: null, error: describeFailure(error, timeoutMs), final: false, durationMs };
  }
}
