import type { Config } from '../config.js';
import type { Database } from '../db/orm.js';
import type { DeliveryJob, DeliveryTarget, JobDeps, JobQueue, ModuleJobs } from '../kit/jobs.js';
import type { Logger } from '../logger.js';
import { isDependencyOutage } from '../outages.js';
import type { QueueStats } from '../observability/metrics.js';
import { runDelivery } from './delivery.js';
import { startQueue } from './queue.js';

export interface EventsRuntime {
  queue: JobQueue;
  /** Stops fetching jobs and waits (up to SHUTDOWN_TIMEOUT_MS) for running attempts; call before the pool closes. */
  stop(): Promise<void>;
  /** pg-boss's counts per delivery queue, for /metrics. */
  queueStats(): Promise<QueueStats[]>;
}

/** Builds each module's delivery targets; the worker knows jobs by name only. */
export type JobFactory = (deps: JobDeps) => ModuleJobs;

/**
 * The delivery worker, inside the server process. Jobs arrive by LISTEN/NOTIFY as soon as the transaction that
 * queued them commits; the 1-second poll is the backstop and what picks up scheduled retries on time.
 */
export async function startEvents(config: Config, database: Database, logger: Logger, factories: readonly JobFactory[]): Promise<EventsRuntime> {
  const modules = factories.map((jobs) => jobs({ config, logger }));
  const targets = modules.flatMap((jobs) => jobs.targets);
  const { boss, queue } = await startQueue(database.url, logger, targets.map((target) => target.queue));
  const policy = { schedule: config.DELIVERY_RETRY_SCHEDULE, windowHours: config.DELIVERY_RETRY_HOURS };
  const log = logger.child({ component: 'delivery' });

  async function work(target: DeliveryTarget) {
    await boss.work<DeliveryJob>(
      target.queue,
      { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1, localConcurrency: target.concurrency },
      async (jobs) => {
        for (const job of jobs) {
          try {
            await runDelivery(target, job.data, job.signal, { em: database.orm.em.fork(), queue, policy, logger: log });
          } catch (error) {
            // pg-boss records the failure on the job and retries it; the log is where people look. A database outage
            // is not this job's fault and is logged once by the queue's outage watch: one short line, no stack.
            if (isDependencyOutage(error)) log.warn({ queue: target.queue, job: job.data, reason: (error as Error).message }, 'delivery job interrupted by a database outage; pg-boss will retry it');
            else log.error({ err: error, queue: target.queue, job: job.data }, 'delivery job failed; pg-boss will retry it');
            throw error;
          }
        }
      },
    );
  }
  for (const target of targets) await work(target);
  const described = Object.assign({}, ...modules.map((jobs) => jobs.describe));
  logger.info({ ...described, retrySchedule: policy.schedule, retryHours: policy.windowHours }, 'delivery worker started');

  return {
    queue,
    async stop() {
      await boss.stop({ graceful: true, timeout: config.SHUTDOWN_TIMEOUT_MS });
      for (const jobs of modules) jobs.close?.();
    },
    async queueStats() {
      const queues = await Promise.all(targets.map((target) => boss.getQueue(target.queue)));
      return queues.flatMap((q) =>
        q ? [{ queue: q.name, ready: q.readyCount, deferred: q.deferredCount, active: q.activeCount, failed: q.failedCount }] : [],
      );
    },
  };
}
