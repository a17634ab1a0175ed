/**
 * Functions and triggers that a module (or the kit) keeps in the database: the rules a write must follow whatever
 * path writes (the ORM, bulk SQL, a cascade, a CLI), kept beside the code that reads what they write. The migrations
 * apply them (Migration20261208400000_module_sql); tests/foundation/module-sql.test.ts checks that the database holds
 * exactly these.
 */
export interface SqlDefinitions {
  /** `create or replace function` statements, a function before those whose SQL body calls it. */
  functions: readonly string[];
  /** Each trigger's `create trigger` statement, with its name and table so that it can be replaced. */
  triggers: readonly SqlTrigger[];
}

export interface SqlTrigger {
  name: string;
  table: string;
  create: string;
}
