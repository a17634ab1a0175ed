import pg from 'pg';
import { createLogger, loadConfig, openDatabase, type Database } from '@switchboard/server';
import type { CallerContext } from '../../apps/server/src/kit/context.js';
import { existingTenant } from './bulk-contacts.js';

type EntityManager = ReturnType<Database['orm']['em']['fork']>;

/** One statement as PostgreSQL receives it. */
export type Statement =
  /** One simple query, parameters inlined (em.execute). */
  | { prepared: false; text: string }
  /** A named prepared statement (`$n` placeholders) run with its parameters bound (executePrepared). */
  | { prepared: true; text: string; values: unknown[] };

/**
 * Runs a service function on a context whose EntityManager hands every statement to `inspect` first, as
 * PostgreSQL receives it: through em.execute (MikroORM inlines the parameters and sends one simple query) or as a
 * prepared statement of executePrepared, which here runs on `client` (a connection of the caller's own). Each then
 * runs for real, so the service takes the paths it would in production. For query plans and the SQL benchmark.
 */
export async function withStatements<T>(
  em: EntityManager,
  client: pg.Client,
  run: (ctx: CallerContext) => Promise<T>,
  inspect: (statement: Statement) => Promise<void> = async () => undefined,
): Promise<{ result: T; statements: Statement[] }> {
  const statements: Statement[] = [];
  const record = async (statement: Statement) => {
    statements.push(statement);
    await inspect(statement);
  };
  const pool = {
    query: async (query: { name: string; text: string; values: unknown[] }) => {
      await record({ prepared: true, text: query.text, values: query.values });
      // Unnamed here: `explain` prepares the statements it plans itself.
      return client.query({ text: query.text, values: query.values });
    },
  };
  const recording = {
    isInTransaction: () => false,
    getPlatform: () => em.getPlatform(),
    execute: async (sql: string, params: unknown[] = []) => {
      const text = em.getPlatform().formatQuery(sql, params);
      await record({ prepared: false, text });
      return em.execute(text);
    },
    getConnection: () => ({ getNativeClient: async () => pool }),
  };
  const result = await run({ em: recording } as unknown as CallerContext);
  return { result, statements };
}

/**
 * The database the SQL tools (sql-bench.ts, inbox-plans.ts) read, BENCH_DATABASE_URL: one seeded by `pnpm bench`
 * with the current migrations applied. Its tenant, the server's ORM on it and a connection of the tool's own.
 */
export async function seededDatabase(url: string | undefined) {
  if (!url) throw new Error('set BENCH_DATABASE_URL to a database seeded by pnpm bench');
  const tenant = await existingTenant(url);
  if (!tenant) throw new Error(`${url} is not a completely seeded benchmark database`);
  const database = await openDatabase(loadConfig({ DATABASE_URL: url }), createLogger('silent'), 2);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { url, tenant, database, client };
}

/** A prepared statement's parameters as the literals of an EXECUTE. */
export const literalsOf = (client: pg.Client, values: unknown[]) =>
  values.map((value) => (typeof value === 'number' ? String(value) : client.escapeLiteral(String(value)))).join(', ');

/**
 * EXPLAIN (with `options`) of a statement on `client`: its rows (one for `format json`, a line each for text). A
 * prepared statement is prepared there and explained as
 * it runs after five executions under `planCacheMode`: the product forces the generic plan (executePrepared);
 * `force_custom_plan` shows the plan its parameters' values would get as literals.
 */
export async function explain<Plan>(
  client: pg.Client,
  statement: Statement,
  options: string,
  planCacheMode: 'force_custom_plan' | 'force_generic_plan' = 'force_generic_plan',
): Promise<Plan[]> {
  const explained = async (sql: string) =>
    (await client.query<{ 'QUERY PLAN': Plan }>(`explain (${options}) ${sql}`)).rows.map((row) => row['QUERY PLAN']);
  if (!statement.prepared) return explained(statement.text);
  await client.query(`prepare explained as ${statement.text}`);
  try {
    await client.query(`set plan_cache_mode = ${planCacheMode}; set jit = off`);
    const execute = `execute explained(${literalsOf(client, statement.values)})`;
    for (let run = 0; run < 5; run++) await client.query(execute);
    return await explained(execute);
  } finally {
    await client.query('deallocate explained; reset plan_cache_mode; reset jit');
  }
}
