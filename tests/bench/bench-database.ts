import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createLogger, loadConfig, migrate, openDatabase, startEmbeddedPostgres } from '@switchboard/server';
import { REPO_ROOT } from '../helpers/processes.js';
import { bulkLoadContacts, existingTenant, markReady, seedTenant, type BenchTenant } from './bulk-contacts.js';
import { bulkLoadMessages, spreadLifecycle } from './bulk-messages.js';

export interface BenchDatabaseOptions {
  contacts: number;
  users: number;
  messages: number;
  /** Contacts given a conversation of MESSAGES_PER_CONVERSATION messages (chat/messages/list, the inbox). */
  conversations: number;
  /** Keep the seeded database after the run and reuse it when it is already there. */
  keep: boolean;
  /** A database name of one's own, e.g. to keep the database of an older build beside the current one. */
  name?: string;
  log: (line: string) => void;
}

export interface BenchDatabase {
  url: string;
  tenant: BenchTenant;
  dispose(): Promise<void>;
}

const EMBEDDED_PORT = 54_399;
export const MESSAGES_PER_CONVERSATION = 10;

/** A PostgreSQL server: DATABASE_URL's, or an embedded one under .data/bench-pg (kept with the database). */
async function postgresServer(keep: boolean, log: (line: string) => void) {
  if (process.env.DATABASE_URL) return { adminUrl: process.env.DATABASE_URL, stop: async () => undefined };
  const dataDir = path.join(REPO_ROOT, '.data', 'bench-pg');
  mkdirSync(dataDir, { recursive: true });
  log(`no DATABASE_URL: embedded PostgreSQL in ${dataDir} on port ${EMBEDDED_PORT}`);
  const embedded = await startEmbeddedPostgres({
    dataDir,
    port: EMBEDDED_PORT,
    database: 'postgres',
    logger: createLogger('warn', 2),
    persistent: keep,
  });
  return { adminUrl: embedded.url, stop: () => embedded.stop() };
}

async function admin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

async function databaseExists(adminUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const { rowCount } = await client
    .query('select 1 from pg_database where datname = $1', [name])
    .finally(() => client.end());
  return rowCount === 1;
}

/**
 * A scratch database `name` on the server at `adminUrl`, made afresh and migrated (one left over from an
 * interrupted run is dropped first), for figures that need a database of their own; `drop` removes it.
 */
export async function scratchDatabase(adminUrl: string, name: string) {
  const drop = () => admin(adminUrl, `drop database if exists "${name}" with (force)`);
  await drop();
  await admin(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    await migrated(url.toString());
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.toString(), drop };
}

/** Applies the build's pending migrations to the database. */
async function migrated(databaseUrl: string): Promise<void> {
  const database = await openDatabase(loadConfig({ DATABASE_URL: databaseUrl }), createLogger('warn', 2), 2);
  await migrate(database.orm).finally(() => database.close());
}

/**
 * The benchmark database, seeded once: with `keep`, an existing completely seeded database of the same name is
 * reused with any newer migrations applied (a server on DATABASE_URL does not migrate when it starts), otherwise it
 * is created afresh.
 */
export async function benchDatabase(options: BenchDatabaseOptions): Promise<BenchDatabase> {
  const { contacts, users, messages, conversations, keep, log } = options;
  const server = await postgresServer(keep, log);
  const name = options.name ?? `switchboard_bench_${contacts}_${conversations}`;
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const dispose = async () => {
    if (!keep) await admin(server.adminUrl, `drop database if exists "${name}" with (force)`);
    await server.stop();
  };

  const reusable =
    keep && (await databaseExists(server.adminUrl, name)) ? await existingTenant(databaseUrl) : undefined;
  if (reusable) {
    log(`reusing the seeded database ${name} (BENCH_KEEP=1)`);
    await migrated(databaseUrl);
    return { url: databaseUrl, tenant: reusable, dispose };
  }
  await admin(server.adminUrl, `drop database if exists "${name}" with (force)`);
  await admin(server.adminUrl, `create database "${name}"`);
  await migrated(databaseUrl);

  const started = Date.now();
  log(`seeding ${name}: ${users.toLocaleString('en-US')} API users, ${messages.toLocaleString('en-US')} messages`);
  const tenant = await seedTenant(databaseUrl, users, messages);
  await bulkLoadContacts(databaseUrl, tenant.channelId, contacts, log);
  await bulkLoadMessages(databaseUrl, tenant.channelId, MESSAGES_PER_CONVERSATION, log, conversations);
  log('  conversation statuses and assignees');
  await spreadLifecycle(databaseUrl, tenant.channelId);
  await markReady(databaseUrl);
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { url: databaseUrl, tenant, dispose };
}
