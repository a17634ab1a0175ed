import { Migration } from '@mikro-orm/migrations';
import { TIME_ORDERED_UUID_FUNCTION } from '../../kit/columns.ts';
import type { SqlDefinitions } from '../../kit/sql-definitions.ts';
import { API_KEY_SQL } from '../../modules/api-keys/api-key.sql.ts';
import { BROADCAST_SQL } from '../../modules/broadcasts/broadcast.sql.ts';
import { CONTACT_SQL } from '../../modules/contacts/contact.sql.ts';
import { CONVERSATION_SQL } from '../../modules/conversations/conversation.sql.ts';
import { WORKSPACE_EVENT_SQL } from '../../modules/event-stream/workspace-event.sql.ts';
import { PORTAL_SESSION_SQL } from '../../modules/portal-sessions/portal-session.sql.ts';

/**
 * Every function and trigger the schema keeps, from the file of the module that owns it (kit/sql-definitions.ts):
 * the core's time-ordered ids, then the modules'. A module's functions before another's only where a body calls
 * them (SQL bodies are checked when created; PL/pgSQL ones when they run).
 */
const SCHEMA_SQL: readonly SqlDefinitions[] = [
  TIME_ORDERED_UUID_FUNCTION,
  API_KEY_SQL,
  PORTAL_SESSION_SQL,
  CONTACT_SQL,
  CONVERSATION_SQL,
  BROADCAST_SQL,
  WORKSPACE_EVENT_SQL,
];

/** The statements that make the database's functions and triggers `definitions`, whatever they were. */
const definitionStatements = (definitions: readonly SqlDefinitions[]): string[] =>
  definitions.flatMap(({ functions, triggers }) => [
    ...functions,
    ...triggers.flatMap(({ name, table, create }) => [`drop trigger if exists "${name}" on "${table}";`, create]),
  ]);

/**
 * Issue #39: each module owns its SQL. The functions and triggers were written in the migrations that introduced
 * them, several rewritten by later ones, so a module's rules (how a broadcast's counts move, what the inbox row
 * carries) were only in history. They now live in their modules' `*.sql.ts` files, and this applies them as they
 * are: the database ends as it was, every definition now read from one place. A later change to a module's SQL is
 * a new migration that applies its definitions again (a database migrated from scratch runs this one with the files
 * as they are then: tests/foundation/module-sql.test.ts checks the result is what the files say).
 */
export class ModuleSql extends Migration {
  override name = 'Migration20261208400000_module_sql';

  override up(): void {
    for (const sql of definitionStatements(SCHEMA_SQL)) this.addSql(sql);
  }

  /** The definitions before were these same ones, written in the migrations before: nothing to undo. */
  override down(): void {}
}
