import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { ListenFor, Services } from './services.js';

/** Attempt one row (an email, an inbound WhatsApp payload) that had `attempt` attempts when queued. */
export interface RowJob {
  id: string;
  attempt: number;
}

/** The port modules queue work through; jobs/queue.ts implements it on pg-boss. */
export interface JobQueue {
  /** Inserts the job through the caller's open transaction: it exists if, and only if, that transaction commits. */
  enqueue(tx: EntityManager, queue: string, job: RowJob, startAfterSeconds?: number): Promise<void>;
  /**
   * Queues a task's job (see Task) through the caller's open transaction, like `enqueue`: the data is what the
   * queue's declaration says its task runs on. On a `singleton` task's queue, a job whose `singletonKey` already has
   * one waiting is absorbed by it. `share` names the tenant whose fair share the job draws on (a channel id): one
   * tenant's backlog never holds another's jobs behind it (see "Fair shares" in docs/security.md).
   */
  enqueueTask<Data extends JobData>(
    tx: EntityManager,
    queue: TaskQueue<Data>,
    data: Data,
    options?: { singletonKey?: string; share?: string },
  ): Promise<void>;
}

/** What a task's job carries: a plain object, stored as JSON (so no dates, functions or undefined values survive). */
export type JobData = object;

/**
 * A task queue's name and the type of its jobs' data, declared once: the code that queues a job and the task that
 * runs it both name this declaration, so the data is typed from one definition end to end.
 */
export interface TaskQueue<Data extends JobData> {
  readonly name: string;
  /** Carries Data for the type checker only. */
  readonly data?: Data;
}

export const taskQueue = <Data extends JobData>(name: string): TaskQueue<Data> => ({ name });

/** What a task's job runs with. */
interface TaskDeps {
  em: EntityManager;
  jobs: JobQueue;
  logger: Logger;
  /** Aborted when the worker stops or the job expires. */
  signal: AbortSignal;
}

/**
 * Background work that is not a row's attempt, e.g. pulling one channel's templates from Meta. Jobs live in
 * PostgreSQL; a run that throws is retried by pg-boss with backoff, one that returns is done.
 */
export interface Task<Data extends JobData = JobData> {
  queue: TaskQueue<Data>;
  /** Jobs of this queue one process runs at once. */
  concurrency: number;
  /** Jobs of one share (tenant) running at once across every instance; unlimited when omitted. */
  shareConcurrency?: number;
  /**
   * At most one job per `singletonKey` waits and one runs (pg-boss's `stately` policy): a request made while one
   * waits is absorbed by it, one made while one runs waits for the next run, so the latest request is never lost.
   */
  singleton?: boolean;
  /**
   * Asked in the queuing transaction before a job is queued: false when the job would find nothing to do (e.g. no
   * automation listens to the event), so writes on the hot path queue no job for nobody.
   */
  wanted?(tx: EntityManager, data: Data): Promise<boolean>;
  run(data: Data, deps: TaskDeps): Promise<void>;
}

/** What an attempt that writes to the database itself (e.g. applying an inbound webhook) is handed. */
interface AttemptContext {
  /** A fork of the worker's EntityManager, for this attempt only. */
  em: EntityManager;
  /** Queues follow-up jobs inside the attempt's own transaction. */
  jobs: JobQueue;
}

/** The rows a row job may attempt: still pending, with the attempt count the job was queued with. */
interface PendingFilter {
  id: string;
  status: 'pending';
  attempts: number;
}

/** A pending row as its target sees it. */
export interface PendingRow {
  id: string;
  attempts: number;
  /** ISO 8601: when the event was queued; the retry window counts from here. */
  createdAt: string;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode?: number | null;
  error?: string | null;
  /** Retrying cannot help (the endpoint was disabled, the mail server refused the address for good). */
  final?: boolean;
}

export type AttemptStatus = 'pending' | 'done' | 'failed';

/** The columns every attempted row has: what the attempt cycle writes after each attempt. */
interface AttemptRecord {
  id: string;
  attempts: number;
  status: string;
  lastError?: string | null;
  updatedAt: Date;
}

/**
 * What a module knows about attempting one kind of row (sending an email, applying an inbound payload); the
 * attempt → record → retry cycle around it is the queue's (jobs/row-attempt.ts).
 */
export interface RowTarget<Row extends PendingRow = PendingRow, Outcome extends AttemptOutcome = AttemptOutcome> {
  /** The job name; the queue is created at start-up from the module list. */
  queue: string;
  /** Jobs of this queue one process runs at once. */
  concurrency: number;
  /** The rows' entity: its AttemptRecord columns are updated after each attempt. */
  entity: EntityClass<AttemptRecord>;
  /** The row's status once delivered (`sent`, `delivered`, …); `pending` and `failed` are the same everywhere. */
  doneStatus: string;
  /**
   * The row the worker's guard names (jobs/row-attempt.ts: pending, with exactly the job's attempt count, else another
   * job owns it), read with what the attempt needs; null when the guard matches no row.
   */
  load(em: EntityManager, pending: PendingFilter): Promise<Row | null>;
  attempt(row: Row, signal: AbortSignal, context: AttemptContext): Promise<Outcome>;
  /** Columns of its own written with the outcome (e.g. the provider's message id). */
  outcomeColumns?(outcome: Outcome, at: { now: Date; nextAttemptAt: Date | null }): Record<string, unknown>;
  /** Runs in the transaction that recorded the outcome (e.g. to log the attempt); `jobs` queues in it. */
  recorded?(tx: EntityManager, row: Row, outcome: Outcome, now: Date, jobs: JobQueue): Promise<void>;
}

/** What a module's job factory is given when the worker starts. */
export interface JobDeps {
  config: Config;
  logger: Logger;
  /** The modules' started services (e.g. the WhatsApp Graph client). */
  services: Pick<Services, 'get'>;
}

/** Work counted like jobs: `due` runs now or is running, `later` waits for its time. */
export interface Backlog {
  due: number;
  later: number;
}

/**
 * A named worker beside the job queues: a dispatcher, or a periodic job (kit/periodic-worker.ts). Started with the job
 * worker (JOB_WORKER), stopped before the database pool closes, listed in the start-up log and /metrics.
 */
export interface BackgroundWorker {
  name: string;
  start(deps: { em: EntityManager; logger: Logger; jobs: JobQueue; listen: ListenFor }): RunningWorker;
  /**
   * Its queues as its table holds them, on an instance that does not run it (JOB_WORKER=false): what waits there
   * counts in that instance's backlog and /metrics too.
   */
  queued?(em: EntityManager): Promise<QueueGauge[]>;
}

export interface RunningWorker {
  /** Stops taking work and waits for what it started (up to `timeoutMs`). */
  stop(timeoutMs: number): Promise<void>;
  /** Its work as PostgreSQL holds it, added to the job backlog ("the worker is idle" means both are). */
  backlog(em: EntityManager): Promise<Backlog>;
  /** The queues it works, as /metrics shows them. */
  gauges?(em: EntityManager): Promise<QueueGauge[]>;
  /** A periodic worker's passes so far (switchboard_worker_* in /metrics). */
  health?(): WorkerHealth;
}

/** A periodic worker's passes since this process started it. */
export interface WorkerHealth {
  runs: number;
  /** Passes that threw. */
  failures: number;
  /** A shared worker's ticks that found no pass due (another instance ran it, or its time has not come). */
  notDue: number;
  /** When the latest pass ended; null before the first. */
  lastRunAt: Date | null;
}

/** One queue's work now: its backlog, and how long the oldest of what is due has waited. */
export interface QueueGauge {
  queue: string;
  /** Due now, or under way. */
  due: number;
  /** Waiting for their time (scheduled retries). */
  later: number;
  /** Seconds since the oldest due item came due; 0 when nothing waits. */
  lagSeconds: number;
}

/**
 * A module's row targets, tasks and workers, what to release when the worker stops, and what to say in the start-up
 * log.
 */
export interface ModuleJobs {
  /** Workers of its own beside the queues. */
  workers?: BackgroundWorker[];
  // Each target its own row type and each task its own data: a typed target or task is one of these (the worker
  // hands it only the jobs of its own queue).
  targets: RowTarget[];
  tasks?: Task[];
  close?(): void;
  describe?: Record<string, unknown>;
}
