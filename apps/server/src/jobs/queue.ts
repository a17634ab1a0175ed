import type { EntityManager } from '@mikro-orm/postgresql';
import { fromKysely, PgBoss, type Db, type Queue, type SendOptions } from 'pg-boss';
import type { JobData, JobQueue, QueueGauge } from '../kit/jobs.js';
import type { Logger } from '../logger.js';
import { clockOf, takeTurn, withTurn } from './fair-shares.js';
import { isDependencyOutage, outageLog } from '../outages.js';

/**
 * Queue settings. Our own retry schedule (kit/retry.ts) re-queues failed attempts as new jobs; pg-boss's
 * retries only cover a handler that threw (database trouble) or a worker that vanished. A crashed worker stops
 * sending heartbeats, so the supervisor (every SUPERVISE_SECONDS) re-queues its job within about 20 s instead
 * of pg-boss's 15-minute default expiry.
 */
const QUEUE_OPTIONS: Omit<Queue, 'name'> = {
  notify: true,
  heartbeatSeconds: 10,
  expireInSeconds: 60,
  retryLimit: 20,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 600,
};
const SUPERVISE_SECONDS = 10;

/** pg-boss's workers keep polling while the database is away; they resume by themselves once it is back. */
const QUIET_BEFORE_RECOVERED_MS = 5000;

/**
 * Each worker reports each failed poll (every second) while the database is away: log the outage once, and
 * its end once the errors have stopped for a few polls. Anything else is a real error, logged in full.
 */
function queueErrorLog(logger: Logger, stopping: () => boolean) {
  const log = outageLog(logger, {
    down: 'job queue cannot reach the database: jobs wait and resume when it is back',
    up: 'job queue reaches the database again',
  });
  let quiet: NodeJS.Timeout | undefined;
  return (error: Error) => {
    if (!isDependencyOutage(error)) return logger.error({ err: error }, 'job queue error');
    // Closing its connections while a poll is in flight is part of an orderly stop, not an outage.
    if (stopping()) return logger.debug({ reason: error.message }, 'job queue connection closed while stopping');
    log.down({ code: (error as { code?: string }).code, reason: error.message });
    clearTimeout(quiet);
    quiet = setTimeout(() => log.up(), QUIET_BEFORE_RECOVERED_MS).unref();
  };
}

export interface QueueRuntime {
  boss: PgBoss;
  queue: JobQueue;
  /** Stops pg-boss, letting running jobs finish within `timeoutMs`. */
  stop(timeoutMs: number): Promise<void>;
  /** The queues' jobs counted in PostgreSQL now (see JobBacklog). */
  backlog(): Promise<JobBacklog>;
  /** Each queue's backlog and lag now, for /metrics. */
  gauges(): Promise<QueueGauge[]>;
  /** Moves a queue's fair-share clock when a job starts (see jobs/fair-shares.ts). */
  clock: ReturnType<typeof clockOf>;
}

/**
 * Jobs of the worker's queues as they stand in PostgreSQL at the moment of asking, unlike pg-boss's queue counts
 * (a cache its monitor refreshes every SUPERVISE_SECONDS). `due` 0 is an idle worker: nothing runs, and nothing will
 * until a job is queued or one of the `later` ones comes due.
 */
export interface JobBacklog {
  /** Runnable now, or running. */
  due: number;
  /** Waiting for their start time: scheduled retries, pg-boss's backoff after a failed run. */
  later: number;
}

/** pg-boss's schema (its default, named so the backlog query below can address its job table). */
const SCHEMA = 'pgboss';

const GAUGES_SQL = `
  select name as queue,
         count(*) filter (where state = 'active' or start_after <= now())::int as due,
         count(*) filter (where state < 'active' and start_after > now())::int as later,
         coalesce(extract(epoch from now() - min(start_after) filter (where state < 'active' and start_after <= now())),
           0)::float8 as "lagSeconds"
    from ${SCHEMA}.job
   where name = any($1) and state <= 'active'
   group by name`;

const BACKLOG_SQL = `
  select count(*) filter (where state = 'active' or start_after <= now())::int as due,
         count(*) filter (where state < 'active' and start_after > now())::int as later
    from ${SCHEMA}.job
   where name = any($1) and state <= 'active'`;

/** pg-boss's send options for a job of `share` in `queue`: its group, and its place in the round-robin. */
async function shareOptions(db: Db, queue: string, data: object, share: string | undefined) {
  if (share === undefined) return { data, options: {} };
  const { turn, ahead } = await takeTurn(db, queue, share);
  return { data: withTurn(data, turn), options: { group: { id: share }, priority: -ahead } satisfies SendOptions };
}

/** Sends a job through the caller's open transaction, so the job exists if, and only if, it commits. */
function sender(boss: PgBoss) {
  return async (tx: EntityManager, queue: string, data: object, options: SendOptions & { share?: string }) => {
    const transaction = tx.getTransactionContext<Parameters<typeof fromKysely>[0]>();
    if (!transaction) throw new Error(`queueing a ${queue} job needs an open transaction`);
    const { share, ...send } = options;
    const db = fromKysely(transaction);
    const fair = await shareOptions(db, queue, data, share);
    await boss.send(queue, fair.data, { ...send, ...fair.options, db });
  };
}

/** A queue the worker runs, as the modules declared it (see RowTarget and Task in kit/jobs.ts). */
export interface QueueSpec {
  name: string;
  /** One job per singletonKey waiting and one running (pg-boss `stately`). */
  singleton?: boolean;
  /** Asked before queueing a job (see Task.wanted): false queues nothing. */
  wanted?(tx: EntityManager, data: JobData): Promise<boolean>;
}

async function createQueues(boss: PgBoss, queues: readonly QueueSpec[]): Promise<void> {
  for (const spec of queues) {
    await boss.createQueue(spec.name, { ...QUEUE_OPTIONS, policy: spec.singleton ? 'stately' : 'standard' });
    // createQueue keeps an existing queue as it was; this applies changed settings on upgrade.
    await boss.updateQueue(spec.name, QUEUE_OPTIONS);
  }
}

/**
 * Periodic jobs are named workers now (kit/periodic-worker.ts), not pg-boss schedules: a database upgraded from a
 * version that scheduled them loses the schedules, and their queues unless a module still declares one.
 */
async function retireSchedules(boss: PgBoss, queues: readonly QueueSpec[]): Promise<void> {
  const declared = new Set(queues.map((spec) => spec.name));
  for (const { name } of await boss.getSchedules()) {
    await boss.unschedule(name);
    if (!declared.has(name)) await boss.deleteQueue(name);
  }
}

/**
 * Why pg-boss and not a hand-written outbox poller: it is a maintained PostgreSQL job queue (SKIP LOCKED
 * claims, so several server instances share it), it can insert jobs through *our* open transaction (the
 * `db` option; MikroORM 7 runs on Kysely, so pg-boss's own Kysely adapter fits), it wakes workers with
 * LISTEN/NOTIFY the moment that transaction commits, and its supervisor re-queues jobs whose worker died.
 * The modules' rows (an email, an inbound payload) are the durable record and attempt log; a job only says
 * "attempt this row now". Job names come from the module list; this file knows none of them.
 *
 * Starts pg-boss on its own small pool (it installs and migrates its `pgboss` schema itself) with these queues.
 */
export async function startQueue(
  databaseUrl: string,
  logger: Logger,
  queues: readonly QueueSpec[],
): Promise<QueueRuntime> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: SCHEMA,
    max: 4,
    application_name: 'switchboard-jobs',
    useListenNotify: true,
    schedule: false,
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    monitorIntervalSeconds: SUPERVISE_SECONDS,
  });
  let stopping = false;
  boss.on(
    'error',
    queueErrorLog(logger, () => stopping),
  );
  boss.on('warning', (warning) => logger.warn({ warning }, 'job queue warning'));
  await boss.start();
  await createQueues(boss, queues);
  await retireSchedules(boss, queues);
  const clock = clockOf(() => boss.getDb());
  const sendWithin = sender(boss);
  const names = queues.map((spec) => spec.name);
  const wanted = new Map(queues.flatMap((spec) => (spec.wanted ? [[spec.name, spec.wanted] as const] : [])));
  return {
    boss,
    async stop(timeoutMs) {
      stopping = true;
      await boss.stop({ graceful: true, timeout: timeoutMs });
    },
    async backlog() {
      const { rows } = await boss.getDb().executeSql(BACKLOG_SQL, [names]);
      return rows[0] as JobBacklog;
    },
    async gauges() {
      const { rows } = await boss.getDb().executeSql(GAUGES_SQL, [names]);
      const found = new Map((rows as QueueGauge[]).map((row) => [row.queue, row]));
      return names.map((queue) => found.get(queue) ?? { queue, due: 0, later: 0, lagSeconds: 0 });
    },
    clock,
    queue: {
      enqueue: (tx, queue, job, startAfterSeconds) =>
        sendWithin(tx, queue, { ...job }, { startAfter: startAfterSeconds }),
      async enqueueTask(tx, queue, data, options) {
        if (!((await wanted.get(queue.name)?.(tx, data)) ?? true)) return;
        await sendWithin(tx, queue.name, { ...data }, { singletonKey: options?.singletonKey, share: options?.share });
      },
    },
  };
}
