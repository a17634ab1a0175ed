import type { EntityManager } from '@mikro-orm/postgresql';
import { fromKysely, PgBoss, type Queue } from 'pg-boss';
import type { Logger } from '../logger.js';

/**
 * Why pg-boss and not a hand-written outbox poller: it is a maintained PostgreSQL job queue (SKIP LOCKED
 * claims, so several server instances share it), it can insert jobs through *our* open transaction (the
 * `db` option; MikroORM 7 runs on Kysely, so pg-boss's own Kysely adapter fits), it wakes workers with
 * LISTEN/NOTIFY the moment that transaction commits, and its supervisor re-queues jobs whose worker died.
 * The rows in outbound_emails / webhook_deliveries are the durable record and delivery log; a job only says
 * "attempt this row now".
 */
export const QUEUES = { email: 'email.send', webhook: 'webhook.deliver' } as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Attempt delivery of one outbound_emails / webhook_deliveries row that had `attempt` attempts when queued. */
export interface DeliveryJob {
  id: string;
  attempt: number;
}

export interface JobQueue {
  /** Inserts the job through the caller's open transaction: it exists if, and only if, that transaction commits. */
  enqueue(tx: EntityManager, queue: QueueName, job: DeliveryJob, startAfterSeconds?: number): Promise<void>;
}

/**
 * Queue settings. Our own retry schedule (events/retry.ts) re-queues failed deliveries as new jobs; pg-boss's
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

export interface QueueRuntime {
  boss: PgBoss;
  queue: JobQueue;
}

/** Starts pg-boss on its own small pool (it installs and migrates its `pgboss` schema itself). */
export async function startQueue(databaseUrl: string, logger: Logger): Promise<QueueRuntime> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    max: 4,
    application_name: 'switchboard-jobs',
    useListenNotify: true,
    schedule: false,
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    monitorIntervalSeconds: SUPERVISE_SECONDS,
  });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  boss.on('warning', (warning) => logger.warn({ warning }, 'job queue warning'));
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    await boss.createQueue(name, QUEUE_OPTIONS);
    // createQueue keeps an existing queue as it was; this applies changed settings on upgrade.
    await boss.updateQueue(name, QUEUE_OPTIONS);
  }
  return {
    boss,
    queue: {
      async enqueue(tx, queue, job, startAfterSeconds) {
        const transaction = tx.getTransactionContext<Parameters<typeof fromKysely>[0]>();
        if (!transaction) throw new Error(`enqueue(${queue}) needs an open transaction`);
        await boss.send(queue, { ...job }, { db: fromKysely(transaction), startAfter: startAfterSeconds });
      },
    },
  };
}
