import { fileURLToPath } from 'node:url';
import { Migrator } from '@mikro-orm/migrations';
import type { EntityClass } from '@mikro-orm/core';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { SecretBox } from '../kit/secrets.js';
import type { Logger } from '../logger.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { SECRETS_EXTENSION, secretsFor } from './secrets-key.js';

/**
 * The committed migrations: every `Migration*` file in migrations/ beside this one, found when the migrator runs
 * (MikroORM's glob
 * discovery, Node ≥ 22), so a new migration is only its file. Resolved from this module, not the working directory:
 * the TypeScript sources under tsx and vitest, the compiled `.js` in dist/ and in the `pnpm deploy` bundle.
 */
const MIGRATIONS_PATH = fileURLToPath(new URL('./migrations', import.meta.url));

export type Orm = MikroORM;

/** Entity classes differ in their shape: any of them is a class of some object. */
type Entities = readonly EntityClass<object>[];

/** Bounds on one request's database work, so one slow query or a lost server cannot hold the pool. */
export interface DatabaseLimits {
  /** PostgreSQL cancels a statement running longer (SQLSTATE 57014; the API answers 503). */
  statementTimeoutMs: number;
  /** How long to wait for a pooled connection, or to open one, before giving up (the API answers 503). */
  acquireTimeoutMs: number;
}

/**
 * What the modules ask of the database (see wiring.ts): their entities, listed, never found by scanning folders, and
 * the PostgreSQL settings every pooled connection opens with.
 */
export interface Schema {
  entities: Entities;
  sessionSettings: Readonly<Record<string, string>>;
}

/** The ORM settings for the modules' schema. */
export function ormConfig(
  { entities, sessionSettings }: Schema,
  clientUrl: string,
  poolMax = 20,
  logger?: Logger,
  limits?: DatabaseLimits,
) {
  const settings = Object.entries(sessionSettings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  return defineConfig({
    clientUrl,
    // MikroORM's own messages (migrations applied) go through our JSON logger, never to stdout.
    logger: (message: string) => logger?.debug({ orm: message }, 'mikro-orm'),
    colors: false,
    entities: [...entities],
    extensions: [Migrator],
    migrations: {
      path: MIGRATIONS_PATH,
      // Migration files only: not their .d.ts, nor another file left in a stale dist/ (tsc never deletes output).
      glob: 'Migration!(*.d).{js,ts}',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    pool: { min: 0, max: poolMax },
    // node-postgres Pool options: the modules' session settings and statement_timeout are set on every connection;
    // connectionTimeoutMillis bounds both the wait for a free pooled client and the connect of a new one.
    driverOptions: {
      ...(settings && { options: settings }),
      ...(limits && { statement_timeout: limits.statementTimeoutMs, connectionTimeoutMillis: limits.acquireTimeoutMs }),
    },
    forceUtcTimezone: true,
    ensureDatabase: false,
    discovery: { warnWhenNoEntities: false },
    // Triggers and SQL functions are written in migrations (the modules' counters and search keys); a generated
    // migration must not drop them.
    schemaGenerator: { ignoreTriggers: true, ignoreRoutines: true },
  });
}

export interface Database {
  orm: Orm;
  url: string;
  /** Seals secrets at rest (see secretsFor); undefined when SECRETS_KEY is unset with DATABASE_URL. */
  secrets: SecretBox | undefined;
  close(): Promise<void>;
}

/** Real PostgreSQL in every mode: DATABASE_URL when set, else the embedded cluster under the data directory. */
export async function openDatabase(
  schema: Schema,
  config: Config,
  logger: Logger,
  poolMax?: number,
): Promise<Database> {
  // First: an unusable SECRETS_KEY stops here, before anything was started.
  const secrets = secretsFor(config, logger);
  const embedded = config.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dataDir: config.SWITCHBOARD_DATA_DIR,
        port: config.EMBEDDED_PG_PORT,
        database: 'switchboard',
        logger,
      });
  const url = config.DATABASE_URL ?? embedded!.url;
  const limits = { statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS, acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS };
  const orm = await MikroORM.init(ormConfig(schema, url, poolMax, logger, limits));
  orm.config.registerExtension(SECRETS_EXTENSION, () => secrets);
  return {
    orm,
    url,
    secrets,
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
