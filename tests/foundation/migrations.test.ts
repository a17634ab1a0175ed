import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, loadConfig, migrate, openDatabase, type Database } from '@switchboard/server';
import { createFreshDatabase, sql } from '../helpers/database.js';

/**
 * The committed migrations are the schema; the entities describe it to MikroORM. If the two drift apart,
 * `migration:create` would write a migration that quietly drops what a hand-written migration added (the
 * trigram indexes, say), so any difference fails here.
 */
describe('committed migrations', { timeout: 120_000 }, () => {
  let database: Database;

  beforeAll(async () => {
    const url = await createFreshDatabase();
    database = await openDatabase(loadConfig({ DATABASE_URL: url }), createLogger('silent'), 2);
    await migrate(database.orm);
  });
  afterAll(() => database?.close());

  it('describe exactly the schema the entities declare', async () => {
    const difference = await database.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(difference.trim()).toBe('');
  });

  it('roll all the way back and apply again', async () => {
    await database.orm.migrator.down({ to: 0 });
    const tables = await sql(
      database.url,
      `select tablename from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations'`,
    );
    expect(tables).toEqual([]);
    const reapplied = await migrate(database.orm);
    expect(reapplied.length).toBeGreaterThan(0);
    expect(await database.orm.schema.getUpdateSchemaSQL({ wrap: false })).toMatch(/^\s*$/);
  });
});
