import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import { nextRetryAt, type RetryPolicy } from '../../kit/retry.js';
import type { Logger } from '../../logger.js';
import { recordEndpointHealth, type AttemptedEndpoint } from './webhook-health.js';
import { recordAttempts, type AttemptRecord, type ClaimedDelivery } from './webhook-lanes.js';
import type { PostOutcome } from '../webhook-transport/index.js';

/** How long an outcome waits for others to share its transaction: a busy endpoint's answers are written together. */
const FLUSH_AFTER_MS = 20;
const FLUSH_MAX = 500;
const RETRY_FLUSH_MS = 500;

/** One POST's outcome for the deliveries it carried, to the endpoint it went to (null: disabled, nothing was sent). */
export interface Answered {
  deliveries: readonly ClaimedDelivery[];
  endpoint: AttemptedEndpoint | null;
  outcome: PostOutcome;
}

export interface RecorderDeps {
  em: () => EntityManager;
  jobs: JobQueue;
  log: Logger;
  policy: RetryPolicy;
  disableAfterHours: number;
}

function recordOf(delivery: ClaimedDelivery, outcome: PostOutcome, policy: RetryPolicy): AttemptRecord {
  const retryAt =
    outcome.ok || outcome.final ? null : nextRetryAt(policy, delivery.attempts + 1, new Date(delivery.created_at));
  const status = outcome.ok ? 'delivered' : retryAt ? 'pending' : 'failed';
  const { statusCode: code, error, durationMs: duration } = outcome;
  return {
    id: delivery.id,
    attempts: delivery.attempts,
    status,
    code,
    error,
    next: retryAt?.toISOString() ?? null,
    duration,
  };
}

/** Each endpoint's latest outcome in the flush: a success clears its failing streak, a failure starts or extends it. */
function latestByEndpoint(answered: readonly Answered[]): [AttemptedEndpoint, boolean][] {
  const latest = new Map<string, [AttemptedEndpoint, boolean]>();
  for (const { endpoint, outcome } of answered) if (endpoint) latest.set(endpoint.endpointId, [endpoint, outcome.ok]);
  return [...latest.values()];
}

/**
 * Writes attempts' outcomes in batches: the deliveries' new states, their attempt log and each endpoint's health in
 * one transaction per flush. A flush that fails (an outage) is tried again until it is written or the dispatcher
 * stops; what is never written stays claimed until its lease ends, then is attempted again.
 */
export class AttemptRecorder {
  private waiting: Answered[] = [];
  /** Deliveries of the flush being written. */
  private writing = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private stopping = false;
  /** Since when writing fails (an outage): logged once when it starts and once when it ends. */
  private failingSince: number | undefined;

  constructor(private readonly deps: RecorderDeps) {}

  /** Deliveries answered but not yet written. */
  get unwritten(): number {
    return this.writing + this.waiting.reduce((sum, answered) => sum + answered.deliveries.length, 0);
  }

  add(answered: Answered): void {
    this.waiting.push(answered);
    if (this.waiting.length >= FLUSH_MAX) this.flushNow();
    else this.timer ??= setTimeout(() => this.flushNow(), FLUSH_AFTER_MS);
  }

  /** Writes what waits, trying for up to `timeoutMs` more. */
  async stop(timeoutMs: number): Promise<void> {
    this.flushNow();
    const deadline = Date.now() + timeoutMs;
    while (this.waiting.length > 0 && Date.now() < deadline) {
      await this.flushing;
      if (this.waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_FLUSH_MS));
      this.flushNow();
    }
    this.stopping = true;
    clearTimeout(this.timer);
    await this.flushing;
  }

  private flushNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.flush());
  }

  private async flush(): Promise<void> {
    const batch = this.waiting.splice(0, FLUSH_MAX);
    if (batch.length === 0) return;
    const { em, jobs, policy, disableAfterHours, log } = this.deps;
    this.writing = batch.reduce((sum, answered) => sum + answered.deliveries.length, 0);
    try {
      await em().transactional(async (tx) => {
        const records = batch.flatMap(({ deliveries, outcome }) => deliveries.map((d) => recordOf(d, outcome, policy)));
        await recordAttempts(tx, records);
        const now = new Date();
        for (const [endpoint, ok] of latestByEndpoint(batch))
          await recordEndpointHealth(tx, jobs, endpoint, ok, now, disableAfterHours);
      });
    } catch (error) {
      if (this.failingSince === undefined)
        log.warn(
          { reason: (error as Error).message, posts: batch.length },
          'recording webhook attempts failed; retrying',
        );
      this.failingSince ??= Date.now();
      this.waiting.unshift(...batch);
      if (!this.stopping) this.timer ??= setTimeout(() => this.flushNow(), RETRY_FLUSH_MS);
      return;
    } finally {
      this.writing = 0;
    }
    if (this.failingSince !== undefined)
      log.info({ failedForMs: Date.now() - this.failingSince }, 'recording webhook attempts works again');
    this.failingSince = undefined;
    if (this.waiting.length > 0) this.flushNow();
  }
}
