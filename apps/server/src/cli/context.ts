import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config.js';
import { migrate } from '../db/orm.js';
import { createLogger, type Logger } from '../logger.js';
import { openDatabase } from '../wiring.js';

export class CliError extends Error {}

/**
 * Runs one CLI command against DATABASE_URL or the embedded database (reusing the running server's cluster when
 * there is one). Pending migrations are applied first. The result is printed as JSON on stdout; logs go to stderr.
 */
export async function runCommand(
  command: (em: EntityManager, context: { logger: Logger; appliedMigrations: string[] }) => Promise<unknown>,
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
  try {
    const appliedMigrations = await migrate(database.orm);
    const result = await command(database.orm.em.fork(), { logger, appliedMigrations });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    await database.close();
  }
}
