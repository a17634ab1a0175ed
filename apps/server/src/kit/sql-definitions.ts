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

/**
 * A trigger that runs `fn` once per statement after `event` on `table`, seeing the rows the statement changed through
 * transition tables named by `rows` (an insert's new rows, a delete's old ones, an update's both).
 */
export function statementTrigger(
  name: string,
  event: 'insert' | 'update' | 'delete' | 'truncate',
  table: string,
  fn: string,
  rows: { old?: string; new?: string } = {},
): SqlTrigger {
  const tables = [rows.old && `old table as ${rows.old}`, rows.new && `new table as ${rows.new}`].filter(Boolean);
  const referencing = tables.length ? ` referencing ${tables.join(' ')}` : '';
  const create = `create trigger "${name}" after ${event} on "${table}"${referencing}`;
  return { name, table, create: `${create} for each statement execute function "${fn}"();` };
}
