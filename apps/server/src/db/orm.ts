import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

export type Orm = MikroORM;

export function ormConfig(clientUrl: string, poolMax = 20, logger?: Logger) {
  return defineConfig({
    clientUrl,
    // MikroORM's own messages (migrations applied) go through our JSON logger, never to stdout.
    logger: (message: string) => logger?.debug({ orm: message }, 'mikro-orm'),
    colors: false,
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      path: 'src/db/migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    pool: { min: 0, max: poolMax },
    forceUtcTimezone: true,
    ensureDatabase: false,
    discovery: { warnWhenNoEntities: false },
    // Triggers are written in migrations (e.g. the contact counters); a generated migration must not drop them.
    schemaGenerator: { ignoreTriggers: true },
  });
}

export interface Database {
  orm: Orm;
  url: string;
  close(): Promise<void>;
}

/** Real PostgreSQL in every mode: DATABASE_URL when set, else the embedded cluster under the data directory. */
export async function openDatabase(config: Config, logger: Logger, poolMax?: number): Promise<Database> {
  const embedded = config.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dataDir: config.SWITCHBOARD_DATA_DIR,
        port: config.EMBEDDED_PG_PORT,
        database: 'switchboard',
        logger,
      });
  const url = config.DATABASE_URL ?? embedded!.url;
  const orm = await MikroORM.init(ormConfig(url, poolMax, logger));
  return {
    orm,
    url,
    async close() {
      await orm.close(true);
      await embedded?.stop();
    },
  };
}

/** Applies committed migrations; never `schema:update`. Returns the names applied. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
