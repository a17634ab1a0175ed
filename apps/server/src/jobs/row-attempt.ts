import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import type { AttemptOutcome, RowJob, AttemptStatus, RowTarget, JobQueue, PendingRow } from '../kit/jobs.js';
import { nextRetryAt, type RetryPolicy } from '../kit/retry.js';

export interface AttemptDeps {
  em: EntityManager;
  queue: JobQueue;
  policy: RetryPolicy;
  logger: Logger;
}

/**
 * Writes an attempt's outcome if the row still has `row.attempts` attempts: false when another job got there first
 * (the guard makes a re-run job a no-op).
 */
async function recordOutcome<Row extends PendingRow, Outcome extends AttemptOutcome>(
  tx: EntityManager,
  jobs: JobQueue,
  target: RowTarget<Row, Outcome>,
  row: Row,
  outcome: Outcome,
  status: AttemptStatus,
  nextAttemptAt: Date | null,
): Promise<boolean> {
  const now = new Date();
  const updated = await tx.nativeUpdate(
    target.entity,
    { id: row.id, attempts: row.attempts },
    {
      attempts: row.attempts + 1,
      status: status === 'done' ? target.doneStatus : status,
      lastError: outcome.error ?? null,
      updatedAt: now,
      ...target.outcomeColumns?.(outcome, { now, nextAttemptAt }),
    },
  );
  if (updated !== 1) return false;
  await target.recorded?.(tx, row, outcome, now, jobs);
  return true;
}

/**
 * One attempt of one row. The outcome, and the job for the next attempt when it failed, commit together, so
 * a crash leaves either the old state (pg-boss re-runs this job) or the new one (the next job runs) — never
 * both: a re-run job finds the attempt count moved on and stops.
 */
export async function runAttempt<Row extends PendingRow, Outcome extends AttemptOutcome>(
  target: RowTarget<Row, Outcome>,
  job: RowJob,
  signal: AbortSignal,
  deps: AttemptDeps,
): Promise<void> {
  // The guard every row job shares: the row only while it is pending with the job's attempt count, so a job that
  // runs again after its attempt was recorded (a crash, a duplicate) finds nothing and stops.
  const row = await target.load(deps.em, { id: job.id, status: 'pending', attempts: job.attempt });
  if (!row) return;
  const outcome = await target.attempt(row, signal, { em: deps.em, jobs: deps.queue });
  // Stopping mid-attempt says nothing about the receiver: let pg-boss run this job again after the restart.
  if (signal.aborted) throw new Error(`${target.queue} ${row.id}: stopped during the attempt`);

  const retryAt =
    outcome.ok || outcome.final ? null : nextRetryAt(deps.policy, row.attempts + 1, new Date(row.createdAt));
  const status: AttemptStatus = outcome.ok ? 'done' : retryAt ? 'pending' : 'failed';
  await deps.em.transactional(async (tx) => {
    const recorded = await recordOutcome(tx, deps.queue, target, row, outcome, status, retryAt);
    if (!recorded || !retryAt) return;
    const delaySeconds = Math.max(0, Math.round((retryAt.getTime() - Date.now()) / 1000));
    await deps.queue.enqueue(tx, target.queue, { id: row.id, attempt: row.attempts + 1 }, delaySeconds);
  });
  const log = {
    queue: target.queue,
    id: row.id,
    attempt: row.attempts + 1,
    statusCode: outcome.statusCode,
    error: outcome.error,
  };
  if (status === 'done') deps.logger.info(log, 'attempt succeeded');
  else
    deps.logger.warn(
      { ...log, retryAt },
      status === 'failed' ? 'attempts given up' : 'attempt failed; retry scheduled',
    );
}
