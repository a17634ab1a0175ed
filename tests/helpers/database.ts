import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A brand-new, empty database on the test PostgreSQL server; returns its URL. */
export async function createFreshDatabase(): Promise<string> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `sb_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

/** Runs SQL directly against a test database: for asserting what was (not) written, and for breaking things. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Holds `table` locked (ACCESS EXCLUSIVE, in a transaction of its own) until `release` (which may be called again):
 * every statement that reads it waits meanwhile, which `waitingOn` shows, so a test can stop the server right at
 * that read.
 */
export async function lockTable(url: string, table: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query(`lock table "${table}" in access exclusive mode`);
  let held = true;
  return {
    release: async () => {
      if (!held) return;
      held = false;
      await client.query('commit');
      await client.end();
    },
  };
}

/** The server's statements on `table` waiting for a lock (their backend pids): they wait on lockTable. */
export async function waitingOn(url: string, table: string): Promise<number[]> {
  const rows = await sql<{ pid: number }>(
    url,
    `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
       and query like '%' || $1 || '%' and pid <> pg_backend_pid()`,
    [table],
  );
  return rows.map((row) => row.pid);
}
