import { hash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

/**
 * Runs a read statement written with `?` placeholders (none inside literals) as a named prepared statement on the
 * pool MikroORM manages, its parameters bound rather than inlined: node-postgres prepares a name once per
 * connection (it remembers what each connection has parsed) and afterwards only binds and executes it, so
 * PostgreSQL parses and plans the statement once per connection instead of on every request. The name is a hash
 * of the text: the same statement has the same name on every connection and in every process, with no registry.
 * The pool's connections run prepared statements with their generic plan and without JIT (db/orm.ts): PostgreSQL's
 * cost estimates treat `LIMIT $n` as a tenth of a million-contact channel, so left to choose it would plan every
 * execution afresh (and JIT-compile a plan so costed). Safe for statements of equality and range lookups on B-tree
 * indexes (contacts/list, chat/conversations/list), whose generic plans are the plans a literal gets (the
 * contacts-plans and conversations-plans tests check them), unlike a pattern match such as `ILIKE $1`, whose generic
 * plan (PostgreSQL switches a named statement to it after five executions) cannot see the pattern and is far slower
 * than its custom plan. What it gains is in docs/benchmarks.md ("Figures behind code choices"; tests/bench/sql-bench.ts
 * measures it). MikroORM itself has no
 * prepared statements (it sends one simple query with the parameters inlined). Inside a transaction the statement
 * goes through the EntityManager instead, on the transaction's connection.
 */
export async function executePrepared<T extends object>(
  em: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  if (em.isInTransaction()) return em.execute<T[]>(sql, params);
  let placeholder = 0;
  const text = sql.replace(/\?/g, () => `$${++placeholder}`);
  const name = `prepared_${hash('sha1', text, 'base64url')}`;
  const pool = (await em.getConnection().getNativeClient()) as pg.Pool;
  const { rows } = await pool.query<T>({ name, text, values: params });
  return rows;
}
