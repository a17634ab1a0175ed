import type { SqlDefinitions } from '../../kit/sql-definitions.ts';

/**
 * A workspace event's `cursor` (the SSE `id`) is given at commit by a deferred trigger that first takes a
 * transaction-level advisory lock: cursors are then handed out in commit order, and every smaller cursor is visible
 * once a larger one is, so a reader that asks for `cursor > last` never skips an event committed late. Holding the
 * lock from the trigger to the end of the commit orders only the commits of transactions that carry an event, and
 * the trigger takes no other lock, so it cannot deadlock. It then notifies `workspace_events` (delivered at commit,
 * to every instance) with an empty payload: the hub reads every event after its position whatever a notification
 * says, and PostgreSQL sends one notification per transaction for equal payloads, not one per event.
 */
export const WORKSPACE_EVENT_SQL: SqlDefinitions = {
  functions: [
    `create or replace function "workspace_events_number"() returns trigger
      language plpgsql as $$
      declare
        next_cursor bigint;
      begin
        perform pg_advisory_xact_lock(hashtext('workspace_events_cursor'));
        next_cursor := nextval('workspace_events_cursor_seq');
        update workspace_events set cursor = next_cursor where id = new.id;
        perform pg_notify('workspace_events', '');
        return null;
      end $$;`,
  ],
  triggers: [
    {
      name: 'workspace_events_number',
      table: 'workspace_events',
      create: `create constraint trigger "workspace_events_number" after insert on "workspace_events"
        deferrable initially deferred for each row execute function "workspace_events_number"();`,
    },
  ],
};
