import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { Database } from '../db/orm.js';
import type {
  RowJob,
  RowTarget,
  JobData,
  JobDeps,
  JobQueue,
  ModuleJobs,
  QueueGauge,
  BackgroundWorker,
  Task,
  WorkerHealth,
} from '../kit/jobs.js';
import type { ListenFor, Services } from '../kit/services.js';
import type { Logger } from '../logger.js';
import { isDependencyOutage } from '../outages.js';
import { runAttempt } from './row-attempt.js';
import { splitTurn } from './fair-shares.js';
import { startQueue, type JobBacklog, type QueueSpec } from './queue.js';

export type { JobBacklog } from './queue.js';

/** What the job queue reports about one queue (pg-boss's own counts). */
export interface QueueStats {
  queue: string;
  ready: number;
  deferred: number;
  active: number;
  failed: number;
}

export type { QueueGauge } from '../kit/jobs.js';

export interface JobsRuntime {
  queue: JobQueue;
  /** Stops fetching jobs and waits (up to SHUTDOWN_TIMEOUT_MS) for running attempts; call before the pool closes. */
  stop(): Promise<void>;
  /** pg-boss's counts per job queue, for /metrics. */
  queueStats(): Promise<QueueStats[]>;
  /** The jobs due now and later, counted in PostgreSQL: what "the worker is idle" is read from (/metrics, tests). */
  backlog(): Promise<JobBacklog>;
  /** Every queue's backlog and lag, the job queues' and the background workers' (their own tables), for /metrics. */
  gauges(): Promise<QueueGauge[]>;
  /** Each named worker this instance runs, and a periodic one's passes, for /metrics. */
  workers(): NamedWorkerHealth[];
}

/** A named worker this instance runs; `health` only for a periodic one (dispatchers report their queues instead). */
export interface NamedWorkerHealth {
  name: string;
  health?: WorkerHealth;
}

/** Builds each module's row targets, tasks and workers; the worker knows jobs by name only. */
export type JobFactory = (deps: JobDeps) => ModuleJobs;

/** The queues the modules' row targets and tasks need, as the worker creates them. */
export function queueSpecsOf(modules: readonly ModuleJobs[]): QueueSpec[] {
  return [
    ...modules.flatMap((jobs) => jobs.targets).map((target) => ({ name: target.queue })),
    ...modules
      .flatMap((jobs) => jobs.tasks ?? [])
      .map((task) => ({
        name: task.queue.name,
        singleton: task.singleton,
        wanted: task.wanted?.bind(task),
      })),
  ];
}

type Runtime = Awaited<ReturnType<typeof startQueue>>;
type Boss = Runtime['boss'];

/**
 * Runs one queue's jobs one by one. pg-boss records a failure on the job and retries it; the log is where people
 * look. A database outage is not the job's fault and is logged once by the queue's outage watch: one short line here.
 */
async function consume<T extends object>(
  { boss, clock }: Pick<Runtime, 'boss' | 'clock'>,
  name: string,
  { concurrency, shareConcurrency }: Pick<Task, 'concurrency' | 'shareConcurrency'>,
  jobLog: Logger,
  what: string,
  run: (data: T, signal: AbortSignal) => Promise<void>,
) {
  await boss.work<T>(
    name,
    {
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 1,
      localConcurrency: concurrency,
      ...(shareConcurrency !== undefined && { groupConcurrency: shareConcurrency }),
    },
    async (jobs) => {
      for (const job of jobs) {
        try {
          const { data, turn } = splitTurn(job.data);
          await clock.started(name, turn);
          await run(data, job.signal);
        } catch (error) {
          if (isDependencyOutage(error))
            jobLog.warn(
              { queue: name, job: job.data, reason: (error as Error).message },
              `${what} interrupted by a database outage; pg-boss will retry it`,
            );
          else jobLog.error({ err: error, queue: name, job: job.data }, `${what} failed; pg-boss will retry it`);
          throw error;
        }
      }
    },
  );
}

async function queueStatsOf(boss: Boss, queues: ReturnType<typeof queueSpecsOf>) {
  const found = await Promise.all(queues.map((spec) => boss.getQueue(spec.name)));
  return found.flatMap((q) =>
    q
      ? [
          {
            queue: q.name,
            ready: q.readyCount,
            deferred: q.deferredCount,
            active: q.activeCount,
            failed: q.failedCount,
          },
        ]
      : [],
  );
}

function announce(config: Config, logger: Logger, described: Record<string, unknown>, queues: readonly QueueSpec[]) {
  if (config.DELIVERY_WORKER !== undefined)
    logger.warn('DELIVERY_WORKER is deprecated and read as JOB_WORKER for now: rename it to JOB_WORKER');
  if (config.JOB_WORKER) return logger.info(described, 'job worker started');
  logger.info(
    { queues: queues.map((spec) => spec.name) },
    'job worker off (JOB_WORKER=false): jobs are queued here and run by instances with the worker',
  );
}

const sumOf = (counts: readonly JobBacklog[]): JobBacklog => ({
  due: counts.reduce((sum, count) => sum + count.due, 0),
  later: counts.reduce((sum, count) => sum + count.later, 0),
});

/** Starts the modules' named workers (dispatchers, periodic jobs) and reads them as one. */
function startNamed(workers: readonly BackgroundWorker[], deps: Parameters<BackgroundWorker['start']>[0]) {
  const running = workers.map((worker) => ({
    name: worker.name,
    worker: worker.start({ ...deps, em: deps.em.fork() }),
  }));
  return {
    names: running.map(({ name }) => name),
    backlogs: (em: EntityManager) => Promise.all(running.map(({ worker }) => worker.backlog(em.fork()))),
    gauges: async (em: EntityManager) =>
      (await Promise.all(running.map(({ worker }) => worker.gauges?.(em.fork()) ?? []))).flat(),
    stop: (timeoutMs: number) => Promise.all(running.map(({ worker }) => worker.stop(timeoutMs))),
    health: (): NamedWorkerHealth[] => running.map(({ name, worker }) => ({ name, health: worker.health?.() })),
  };
}

/**
 * The job worker, inside the server process: the modules' row targets, tasks and named workers. Jobs arrive by
 * LISTEN/NOTIFY as soon as the transaction that queued them commits; the 1-second poll is the backstop and what
 * picks up scheduled retries on time.
 */
export async function startJobs(
  config: Config,
  database: Database,
  logger: Logger,
  factories: readonly JobFactory[],
  services: Pick<Services, 'get'>,
  listen: ListenFor,
): Promise<JobsRuntime> {
  const modules = factories.map((jobs) => jobs({ config, logger, services }));
  const targets = modules.flatMap((jobs) => jobs.targets);
  const tasks = modules.flatMap((jobs) => jobs.tasks ?? []);
  const queues = queueSpecsOf(modules);
  const runtime = await startQueue(database.url, logger, queues);
  const { boss, queue, backlog, stop } = runtime;
  const policy = { schedule: config.DELIVERY_RETRY_SCHEDULE, windowHours: config.DELIVERY_RETRY_HOURS };
  const log = logger.child({ component: 'row-job' });
  const taskLog = logger.child({ component: 'task' });

  const work = (target: RowTarget) =>
    consume<RowJob>(runtime, target.queue, target, log, 'row job', (data, signal) =>
      runAttempt(target, data, signal, { em: database.orm.em.fork(), queue, policy, logger: log }),
    );
  const runTasks = (task: Task) =>
    consume<JobData>(runtime, task.queue.name, task, taskLog, 'task', (data, signal) =>
      task.run(data, { em: database.orm.em.fork(), jobs: queue, logger: taskLog, signal }),
    );
  const described = Object.assign({ retryHours: policy.windowHours }, ...modules.map((jobs) => jobs.describe));
  const workers = modules.flatMap((jobs) => jobs.workers ?? []);
  // Workers this instance does not run still show what waits in their tables.
  const queuedOf = async (em: EntityManager) =>
    config.JOB_WORKER ? [] : (await Promise.all(workers.map((worker) => worker.queued?.(em) ?? []))).flat();
  if (config.JOB_WORKER) {
    for (const target of targets) await work(target);
    for (const task of tasks) await runTasks(task);
  }
  const named = startNamed(config.JOB_WORKER ? workers : [], { em: database.orm.em, logger, jobs: queue, listen });
  announce(config, logger, { ...described, workers: named.names, retrySchedule: policy.schedule }, queues);

  return {
    queue,
    backlog: async () =>
      sumOf([await backlog(), ...(await named.backlogs(database.orm.em)), ...(await queuedOf(database.orm.em.fork()))]),
    async stop() {
      await named.stop(config.SHUTDOWN_TIMEOUT_MS);
      await stop(config.SHUTDOWN_TIMEOUT_MS);
      for (const jobs of modules) jobs.close?.();
    },
    queueStats: () => queueStatsOf(boss, queues),
    workers: named.health,
    async gauges() {
      const own = await named.gauges(database.orm.em);
      return [...(await runtime.gauges()), ...own, ...(await queuedOf(database.orm.em.fork()))];
    },
  };
}
