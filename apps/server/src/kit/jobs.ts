import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

/** Attempt delivery of one row (an email, a webhook delivery) that had `attempt` attempts when queued. */
export interface DeliveryJob {
  id: string;
  attempt: number;
}

/** The port modules queue work through; events/queue.ts implements it on pg-boss. */
export interface JobQueue {
  /** Inserts the job through the caller's open transaction: it exists if, and only if, that transaction commits. */
  enqueue(tx: EntityManager, queue: string, job: DeliveryJob, startAfterSeconds?: number): Promise<void>;
}

/** What an attempt that writes to the database itself (e.g. applying an inbound webhook) is handed. */
export interface AttemptContext {
  /** A fork of the worker's EntityManager, for this attempt only. */
  em: EntityManager;
  /** Queues follow-up jobs inside the attempt's own transaction. */
  jobs: JobQueue;
}

/** A pending row as a delivery target sees it. */
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

export type DeliveryStatus = 'pending' | 'done' | 'failed';

/**
 * What a module knows about delivering one kind of row; the attempt → record → retry cycle around it is the
 * queue's (events/delivery.ts).
 */
export interface DeliveryTarget<Row extends PendingRow = PendingRow, Outcome extends AttemptOutcome = AttemptOutcome> {
  /** The job name; the queue is created at start-up from the module list. */
  queue: string;
  /** Jobs of this queue one process runs at once. */
  concurrency: number;
  /** The row, only while it is pending and has had exactly `job.attempt` attempts (else another job owns it). */
  load(em: EntityManager, job: DeliveryJob): Promise<Row | null>;
  attempt(row: Row, signal: AbortSignal, context: AttemptContext): Promise<Outcome>;
  /** Writes the outcome if the row still has `row.attempts` attempts; false when another job got there first. */
  record(tx: EntityManager, row: Row, outcome: Outcome, status: DeliveryStatus, nextAttemptAt: Date | null): Promise<boolean>;
}

/** What a module's job factory is given when the worker starts. */
export interface JobDeps {
  config: Config;
  logger: Logger;
}

/** A module's delivery targets, what to release when the worker stops, and what to say in the start-up log. */
export interface ModuleJobs {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each target has its own row type
  targets: DeliveryTarget<any, any>[];
  close?(): void;
  describe?: Record<string, unknown>;
}
