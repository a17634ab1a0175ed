import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

interface Prepared {
  name: string;
  text: string;
}
const statements = new Map<string, Prepared>();
/** The statements prepared on each pooled connection (a connection replaced by the pool is a new client). */
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

/** The statement with `$n` placeholders, under a name of its own. */
function preparedOf(sql: string): Prepared {
  let statement = statements.get(sql);
  if (!statement) {
    let n = 0;
    statement = { name: `contacts_list_${statements.size + 1}`, text: sql.replace(/\?/g, () => `$${++n}`) };
    statements.set(sql, statement);
  }
  return statement;
}

/**
 * Runs a read statement written with `?` placeholders (none inside literals) as a prepared statement, on the pool
 * MikroORM manages: PostgreSQL parses and plans it once per connection (PREPARE) instead of on every request, and
 * each request EXECUTEs it with its parameters as literals. The plan is PostgreSQL's generic plan, forced for the
 * EXECUTE alone (SET LOCAL, the query's implicit transaction): its cost estimates treat LIMIT $n as a tenth of a
 * million-contact channel, so left to choose, PostgreSQL would plan every execution afresh (and a generic plan so
 * costed would be JIT-compiled on every run, hence jit off). Safe for contacts/list: its statements are equality
 * and range lookups on B-tree indexes, whose generic plans are the plans a literal gets (the contacts-plans test
 * checks both), unlike `ILIKE $1` (STACK.md). Measured at 1M contacts: page 1 ~3,600 → ~7,000 statements/s,
 * a name search ~1.5–2× (tests/bench/sql-bench.ts). MikroORM itself has no prepared statements (em.execute sends
 * one simple query with the parameters inlined). Inside a transaction the statement goes through the
 * EntityManager instead, on the transaction's connection.
 */
export async function executePrepared<T extends object>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  if (em.isInTransaction()) return em.execute<T[]>(sql, params);
  const { name, text } = preparedOf(sql);
  const platform = em.getPlatform();
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    const prepared = preparedOn.get(client) ?? new Set<string>();
    if (!prepared.has(name)) {
      await client.query(`prepare ${name} as ${text}`);
      preparedOn.set(client, prepared.add(name));
    }
    const results = await client.query<T>(
      `set local plan_cache_mode = force_generic_plan; set local jit = off; execute ${name}(${params.map((p) => platform.escape(p)).join(', ')})`,
    );
    return (results as unknown as pg.QueryResult<T>[]).at(-1)!.rows;
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    // As pg's own pool.query does: a connection whose query failed is not reused.
    client.release(failure);
  }
}
