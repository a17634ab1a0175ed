import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import type { BackgroundWorker, JobQueue, WorkerHealth } from './jobs.js';

/** One periodic job: what it does each pass and how often. */
export interface PeriodicJob {
  /** Its name in /metrics (`worker` label) and the start-up log, e.g. `broadcasts.scheduler`. */
  name: string;
  /** Time between the starts of two passes; a tick that finds the previous pass still running is skipped. */
  everyMs: number;
  /**
   * The first pass comes a full period after start rather than at once: for a pass that calls out (Meta), which
   * should not follow every restart. By default a pass runs at start, so an hourly sweep still runs on an instance
   * restarted more often than that.
   */
  waitFirst?: boolean;
  /** One pass. A pass that throws counts as a failure and is logged; the next tick tries again. */
  run(deps: { em: EntityManager; jobs: JobQueue; logger: Logger }): Promise<void>;
  /** The warning a failed pass logs (no stack: it is mostly the database being away, reported once elsewhere). */
  failure: string;
}

/** A named worker running a periodic job; `run` is one pass on demand (tests, the CLI). */
export type PeriodicWorker = BackgroundWorker & Pick<PeriodicJob, 'run'>;

/**
 * A periodic job as a named worker: started and stopped by the job worker (JOB_WORKER) like every other background
 * worker, and counted in /metrics (switchboard_worker_*). The work it does is claimed in PostgreSQL (SKIP LOCKED,
 * idempotent deletes), so every instance with the worker may run it at once.
 */
export function periodicWorker(job: PeriodicJob): PeriodicWorker {
  return {
    name: job.name,
    run: (deps) => job.run(deps),
    start({ em, jobs, logger }) {
      const health: WorkerHealth = { runs: 0, failures: 0, lastRunAt: null };
      let pass: Promise<void> | undefined;
      const runOnce = async () => {
        try {
          await job.run({ em, jobs, logger });
        } catch (error) {
          health.failures++;
          logger.warn({ worker: job.name, reason: (error as Error).message }, job.failure);
        } finally {
          health.runs++;
          health.lastRunAt = new Date();
        }
      };
      const tick = () => {
        pass ??= runOnce().finally(() => (pass = undefined));
      };
      const timer = setInterval(tick, job.everyMs);
      timer.unref();
      if (!job.waitFirst) tick();
      return {
        async stop() {
          clearInterval(timer);
          await pass;
        },
        backlog: () => Promise.resolve({ due: 0, later: 0 }),
        health: () => ({ ...health }),
      };
    },
  };
}
