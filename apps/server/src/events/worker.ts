import type { Config } from '../config.js';
import type { Database } from '../db/orm.js';
import type { Logger } from '../logger.js';
import { createMailer, emailTarget } from '../modules/mail/mail.service.js';
import { webhookTarget } from '../modules/webhooks/webhook.service.js';
import { runDelivery, type AttemptOutcome, type DeliveryTarget, type PendingRow } from './delivery.js';
import { startQueue, type DeliveryJob, type JobQueue } from './queue.js';

export interface EventsRuntime {
  queue: JobQueue;
  /** Stops fetching jobs and waits (up to SHUTDOWN_TIMEOUT_MS) for running attempts; call before the pool closes. */
  stop(): Promise<void>;
}

/**
 * The delivery worker, inside the server process. Jobs arrive by LISTEN/NOTIFY as soon as the transaction that
 * queued them commits; the 1-second poll is the backstop and what picks up scheduled retries on time.
 */
export async function startEvents(config: Config, database: Database, logger: Logger): Promise<EventsRuntime> {
  const { boss, queue } = await startQueue(database.url, logger);
  const mailer = createMailer(config, logger);
  const policy = { schedule: config.DELIVERY_RETRY_SCHEDULE, windowHours: config.DELIVERY_RETRY_HOURS };
  const log = logger.child({ component: 'delivery' });

  async function work<Row extends PendingRow, Outcome extends AttemptOutcome>(target: DeliveryTarget<Row, Outcome>, concurrency: number) {
    await boss.work<DeliveryJob>(
      target.queue,
      { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1, localConcurrency: concurrency },
      async (jobs) => {
        for (const job of jobs) {
          try {
            await runDelivery(target, job.data, job.signal, { em: database.orm.em.fork(), queue, policy, logger: log });
          } catch (error) {
            // pg-boss records the failure on the job and retries it; the log is where people look.
            log.error({ err: error, queue: target.queue, job: job.data }, 'delivery job failed; pg-boss will retry it');
            throw error;
          }
        }
      },
    );
  }
  await work(emailTarget(mailer), 2);
  await work(webhookTarget(config.WEBHOOK_TIMEOUT_MS), 4);
  logger.info({ mail: mailer.transport, retrySchedule: policy.schedule, retryHours: policy.windowHours }, 'delivery worker started');

  return {
    queue,
    async stop() {
      await boss.stop({ graceful: true, timeout: config.SHUTDOWN_TIMEOUT_MS });
      mailer.close();
    },
  };
}
