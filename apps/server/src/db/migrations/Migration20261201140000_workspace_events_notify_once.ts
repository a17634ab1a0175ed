import { Migration } from '@mikro-orm/migrations';

const NUMBER = (notify: string) => `create or replace function "workspace_events_number"() returns trigger
      language plpgsql as $$
      declare
        next_cursor bigint;
      begin
        perform pg_advisory_xact_lock(hashtext('workspace_events_cursor'));
        next_cursor := nextval('workspace_events_cursor_seq');
        update workspace_events set cursor = next_cursor where id = new.id;
        perform pg_notify('workspace_events', ${notify});
        return null;
      end $$;`;

/**
 * The stream's hub reads every event after its position whatever a notification says, so the notification needs
 * no cursor: with the same (empty) payload PostgreSQL sends one per transaction, not one per event, and a batch of
 * status reports that records hundreds of events wakes every instance once.
 */
export class WorkspaceEventsNotifyOnce extends Migration {
  override name = 'Migration20261201140000_workspace_events_notify_once';

  override up(): void {
    this.addSql(NUMBER(`''`));
  }

  override down(): void {
    this.addSql(NUMBER('next_cursor::text'));
  }
}
