import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config.js';
import { migrate } from '../db/orm.js';
import { listenerOn } from '../db/notification-listener.js';
import { startQueue, type QueueRuntime } from '../jobs/queue.js';
import { queueSpecsOf } from '../jobs/worker.js';
import type { JobQueue } from '../kit/jobs.js';
import type { SecretBox } from '../kit/secrets.js';
import { startServices, type Services } from '../kit/services.js';
import { createLogger, type Logger } from '../logger.js';
import { jobFactories, openDatabase, serviceProviders } from '../wiring.js';

export interface CommandContext {
  logger: Logger;
  appliedMigrations: string[];
  /** The modules' services (e.g. the WhatsApp Graph client), started and checked on first use, stopped at the end. */
  services(): Promise<Services>;
  /**
   * The job queue, for a command that queues what a request would (a webhook event): jobs land in PostgreSQL for
   * the running servers' workers; this process runs none.
   */
  jobs(): Promise<JobQueue>;
  /** The SECRETS_KEY box (with SECRETS_KEY_PREVIOUS); undefined when no key is configured. */
  secrets: SecretBox | undefined;
}

export class CliError extends Error {}

/**
 * Runs one CLI command against DATABASE_URL or the embedded database (reusing the running server's cluster when
 * there is one). Pending migrations are applied first. The result is printed as JSON on stdout; logs go to stderr.
 */
/** The CLI runs no worker: its commands do their work in-process; a service that tries to queue a job says so. */
const refuse = async () => {
  throw new CliError(
    'This command would queue a background job, which only a running server does; use the API instead.',
  );
};
const noJobQueue: JobQueue = { enqueue: refuse, enqueueTask: refuse };

export async function runCommand(
  command: (em: EntityManager, context: CommandContext) => Promise<unknown>,
): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 2);
  const database = await openDatabase(config, logger, 4);
  // Interrupted (Ctrl-C, kill): close the pool and stop an embedded PostgreSQL this command started, then exit.
  const interrupted = (signal: NodeJS.Signals) => {
    logger.warn({ signal }, 'interrupted: closing the database');
    void database.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  let started: Services | undefined;
  const services = async () => {
    if (started) return started;
    started = startServices(serviceProviders, {
      em: database.orm.em,
      logger,
      config,
      jobs: noJobQueue,
      secrets: database.secrets,
      listen: listenerOn(database.url, logger),
    });
    await started.check();
    return started;
  };
  let queue: QueueRuntime | undefined;
  const jobs = async () => {
    if (!queue) {
      const running = await services();
      const modules = jobFactories.map((factory) => factory({ config, logger, services: running }));
      queue = await startQueue(database.url, logger, queueSpecsOf(modules));
    }
    return queue.queue;
  };
  try {
    const appliedMigrations = await migrate(database.orm);
    const result = await command(database.orm.em.fork(), {
      logger,
      appliedMigrations,
      services,
      jobs,
      secrets: database.secrets,
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    await queue?.stop(1000);
    await started?.stop();
    await database.close();
  }
}
