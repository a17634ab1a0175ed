import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceContext } from '../../apps/server/src/kit/context.js';

/**
 * Runs a service function on a context whose EntityManager hands every raw statement to `inspect` first, as
 * PostgreSQL receives it (MikroORM inlines the parameters and sends one simple-protocol query), then executes it
 * for real, so the service takes the same paths it would in production. For query plans and the SQL benchmark.
 */
export async function withStatements<T>(
  em: EntityManager,
  run: (ctx: ServiceContext) => Promise<T>,
  inspect: (statement: string) => Promise<void> = async () => undefined,
): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const recording = {
    execute: async (sql: string, params: unknown[] = []) => {
      const statement = em.getPlatform().formatQuery(sql, params);
      statements.push(statement);
      await inspect(statement);
      return em.execute(statement);
    },
  };
  const result = await run({ em: recording } as unknown as ServiceContext);
  return { result, statements };
}
