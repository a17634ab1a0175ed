import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, loadConfig, migrate, openDatabase, type Database } from '@switchboard/server';
import { ModuleSql } from '../../apps/server/src/db/migrations/Migration20261208400000_module_sql.js';
import { createFreshDatabase } from '../helpers/database.js';

/** Every function (but an extension's) and trigger of the schema, as PostgreSQL prints them back. */
const DEFINITIONS = `
  select pg_get_functiondef(p.oid) as definition from pg_proc p
   where p.pronamespace = 'public'::regnamespace
     and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
  union all
  select pg_get_triggerdef(t.oid) from pg_trigger t join pg_class c on c.oid = t.tgrelid
   where c.relnamespace = 'public'::regnamespace and not t.tgisinternal
  order by 1`;

/** Drops them all, so that what is created next is all there is. */
const DROP_ALL = `do $$ declare item record; begin
  for item in select t.tgname, t.tgrelid::regclass as tbl from pg_trigger t join pg_class c on c.oid = t.tgrelid
               where c.relnamespace = 'public'::regnamespace and not t.tgisinternal loop
    execute format('drop trigger %I on %s', item.tgname, item.tbl);
  end loop;
  for item in select p.oid::regprocedure as fn from pg_proc p where p.pronamespace = 'public'::regnamespace
                 and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e') loop
    execute format('drop function %s cascade', item.fn);
  end loop;
end $$`;

/**
 * Each module owns its functions and triggers (`modules/<name>/<name>.sql.ts`, kit/sql-definitions.ts), and the
 * migrations apply them. The database the migrations build must hold exactly what those files define, nothing more:
 * a function or trigger a migration writes by hand, or one left out of the modules' files, fails here.
 */
describe('module SQL', { timeout: 120_000 }, () => {
  let database: Database;

  beforeAll(async () => {
    const url = await createFreshDatabase();
    database = await openDatabase(loadConfig({ DATABASE_URL: url }), createLogger('silent'), 2);
    await migrate(database.orm);
  });
  afterAll(() => database?.close());

  it('is every function and trigger of the migrated database, exactly as the modules define it', async () => {
    const migration = new ModuleSql(database.orm.em.getDriver(), database.orm.config);
    await migration.up();
    const statements = migration.getQueries().map(String);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const migrated = (await client.query(DEFINITIONS)).rows;
      await client.query('begin');
      await client.query(DROP_ALL);
      expect((await client.query(DEFINITIONS)).rows).toEqual([]);
      for (const statement of statements) await client.query(statement);
      const fromModules = (await client.query(DEFINITIONS)).rows;
      await client.query('rollback');
      expect(migrated.length).toBeGreaterThan(50);
      expect(fromModules).toEqual(migrated);
    } finally {
      await client.end();
    }
  });
});
