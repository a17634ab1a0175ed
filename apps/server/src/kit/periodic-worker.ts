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
  /**
   * One pass per period across every instance, on a schedule kept in PostgreSQL (`worker_schedules`): a restart
   * neither repeats a pass nor puts the next one off, and instances do not each run it. Each instance with the
   * worker asks every CLAIM_EVERY_MS (or each period, when shorter) whether a pass is due, and the one whose claim
   * moves the schedule on runs it. With `waitFirst`, a schedule's first pass comes a period after it is created.
   */
  shared?: boolean;
  /** One pass. A pass that throws counts as a failure and is logged; the next tick tries again. */
  run(deps: { em: EntityManager; jobs: JobQueue; logger: Logger }): Promise<void>;
  /** The warning a failed pass logs (no stack: it is mostly the database being away, reported once elsewhere). */
  failure: string;
}

/** How often an instance asks whether a shared job's pass is due. */
const CLAIM_EVERY_MS = 10_000;

/**
 * Claims a shared job's pass: true when its schedule was due and this call moved it on (one statement, so two
 * instances asking at once get one pass between them). A schedule seen for the first time is created, due at once or
 * (waitFirst) a period later.
 */
async function claimPass(em: EntityManager, job: PeriodicJob): Promise<boolean> {
  await em.execute(
    `insert into worker_schedules (name, next_pass_at)
     values (?, now() + make_interval(secs => ?::float8 / 1000)) on conflict (name) do nothing`,
    [job.name, job.waitFirst ? job.everyMs : 0],
  );
  const claimed = await em.execute<{ name: string }[]>(
    `update worker_schedules set next_pass_at = now() + make_interval(secs => ?::float8 / 1000)
      where name = ? and next_pass_at <= now()
     returning name`,
    [job.everyMs, job.name],
  );
  return claimed.length > 0;
}

/** A named worker running a periodic job; `run` is one pass on demand (tests, the CLI). */
export type PeriodicWorker = BackgroundWorker & Pick<PeriodicJob, 'run'>;

/**
 * A periodic job as a named worker: started and stopped by the job worker (JOB_WORKER) like every other background
 * worker, and counted in /metrics (switchboard_worker_*). Unless `shared`, every instance with the worker runs it: the
 * work it does is claimed in PostgreSQL (SKIP LOCKED, idempotent deletes).
 */
export function periodicWorker(job: PeriodicJob): PeriodicWorker {
  return {
    name: job.name,
    run: (deps) => job.run(deps),
    start({ em, jobs, logger }) {
      const health: WorkerHealth = { runs: 0, failures: 0, notDue: 0, lastRunAt: null };
      let pass: Promise<void> | undefined;
      const runOnce = async () => {
        // A shared job's tick that finds its pass not due is no pass.
        let ran = true;
        try {
          ran = !job.shared || (await claimPass(em.fork(), job));
          if (ran) await job.run({ em, jobs, logger });
        } catch (error) {
          health.failures++;
          logger.warn({ worker: job.name, reason: (error as Error).message }, job.failure);
        } finally {
          if (ran) {
            health.runs++;
            health.lastRunAt = new Date();
          } else health.notDue++;
        }
      };
      const tick = () => {
        pass ??= runOnce().finally(() => (pass = undefined));
      };
      const timer = setInterval(tick, job.shared ? Math.min(job.everyMs, CLAIM_EVERY_MS) : job.everyMs);
      timer.unref();
      if (!job.waitFirst || job.shared) tick();
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
