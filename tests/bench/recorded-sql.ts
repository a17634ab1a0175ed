import type pg from 'pg';
import type { Database } from '@switchboard/server';
import type { ServiceContext } from '../../apps/server/src/kit/context.js';

type EntityManager = ReturnType<Database['orm']['em']['fork']>;

/** One statement as PostgreSQL receives it. */
export type Statement =
  /** One simple query, parameters inlined (em.execute). */
  | { prepared: false; text: string }
  /** A prepared statement (`$n` placeholders) run with `args`, its parameters as a list of literals (executePrepared). */
  | { prepared: true; text: string; args: string; values: unknown[] };

/** The values of a list of SQL literals as PostgreSQL's escapeLiteral writes them (`'it''s'`, ` E'a\\b'`, `50`). */
function valuesOf(literals: string): unknown[] {
  return [...literals.matchAll(/\s*(E?)'((?:[^']|'')*)'|\s*(-?[\d.]+)/g)].map(([, e, quoted, number]) =>
    quoted === undefined ? Number(number) : e ? quoted.replace(/''/g, "'").replace(/\\\\/g, '\\') : quoted.replace(/''/g, "'"),
  );
}

/**
 * Runs a service function on a context whose EntityManager hands every statement to `inspect` first, as
 * PostgreSQL receives it: through em.execute (MikroORM inlines the parameters and sends one simple query) or as a
 * prepared statement of executePrepared, which here runs on `client` (a connection of the caller's own). Each then
 * runs for real, so the service takes the paths it would in production. For query plans and the SQL benchmark.
 */
export async function withStatements<T>(
  em: EntityManager,
  client: pg.Client,
  run: (ctx: ServiceContext) => Promise<T>,
  inspect: (statement: Statement) => Promise<void> = async () => undefined,
): Promise<{ result: T; statements: Statement[] }> {
  const statements: Statement[] = [];
  const record = async (statement: Statement) => {
    statements.push(statement);
    await inspect(statement);
  };
  const texts = new Map<string, string>();
  const connection = {
    query: async (sql: string) => {
      const prepare = /^prepare (\w+) as ([\s\S]*)$/.exec(sql);
      if (prepare) texts.set(prepare[1]!, prepare[2]!);
      const execute = /execute (\w+)\(([\s\S]*)\)$/.exec(sql);
      if (execute) await record({ prepared: true, text: texts.get(execute[1]!)!, args: execute[2]!, values: valuesOf(execute[2]!) });
      return client.query(sql);
    },
    release: () => undefined,
  };
  const recording = {
    isInTransaction: () => false,
    getPlatform: () => em.getPlatform(),
    execute: async (sql: string, params: unknown[] = []) => {
      const text = em.getPlatform().formatQuery(sql, params);
      await record({ prepared: false, text });
      return em.execute(text);
    },
    getConnection: () => ({ getNativeClient: async () => ({ connect: async () => connection }) }),
  };
  try {
    const result = await run({ em: recording } as unknown as ServiceContext);
    return { result, statements };
  } finally {
    await client.query('deallocate all');
  }
}

/**
 * EXPLAIN (with `options`) of a statement on `client`: its rows (one for `format json`, a line each for text). A prepared statement is prepared there and explained as
 * it runs after five executions under `planCacheMode`: the product forces the generic plan (executePrepared);
 * `force_custom_plan` shows the plan its parameters' values would get as literals.
 */
export async function explain<Plan>(
  client: pg.Client,
  statement: Statement,
  options: string,
  planCacheMode: 'force_custom_plan' | 'force_generic_plan' = 'force_generic_plan',
): Promise<Plan[]> {
  const explained = async (sql: string) => (await client.query<{ 'QUERY PLAN': Plan }>(`explain (${options}) ${sql}`)).rows.map((row) => row['QUERY PLAN']);
  if (!statement.prepared) return explained(statement.text);
  await client.query(`prepare explained as ${statement.text}`);
  try {
    await client.query(`set plan_cache_mode = ${planCacheMode}; set jit = off`);
    const execute = `execute explained(${statement.args})`;
    for (let run = 0; run < 5; run++) await client.query(execute);
    return await explained(execute);
  } finally {
    await client.query('deallocate explained; reset plan_cache_mode; reset jit');
  }
}
