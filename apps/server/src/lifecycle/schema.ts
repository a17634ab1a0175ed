import { migratesOnStart, type Config } from '../config.js';
import { migrate, type Orm } from '../db/orm.js';
import type { Logger } from '../logger.js';

/**
 * Applies pending migrations when this instance may (MIGRATE_ON_START, on by default only for the embedded
 * database). Otherwise it only reports them: the instance still starts, and /readyz answers 503 until an operator
 * (or compose's one-shot `migrate` service) runs `pnpm cli migrate`. Returns how many stay pending.
 */
export async function prepareSchema(config: Config, orm: Orm, logger: Logger): Promise<number> {
  if (migratesOnStart(config)) {
    const applied = await migrate(orm);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    return 0;
  }
  const pending = (await orm.migrator.getPending()).map((m) => m.name);
  if (pending.length) {
    logger.warn(
      { pending },
      `${pending.length} migration(s) pending and MIGRATE_ON_START is off: not ready until \`pnpm cli migrate\` ` +
        `applies them`,
    );
  }
  return pending.length;
}
