import { Migration } from '@mikro-orm/migrations';

/**
 * Replay (`Last-Event-ID`) reads one stream's events after a cursor: its channels' (`channel_id in (…)`) and, for a
 * key with platform access, its platform's own (`channel_id is null`). With only the cursor index it walked every
 * tenant's events in cursor order from there, filtering; these indexes hand it its own events (docs/benchmarks.md,
 * "Live events"). Built in the migration's transaction: the table holds at most the replay window's events.
 */
export class WorkspaceEventsReplayIndexes extends Migration {
  override name = 'Migration20261206110000_workspace_events_replay_indexes';

  override up(): void {
    this.addSql(`create index "workspace_events_channel_cursor_index" on "workspace_events" ("channel_id", "cursor");`);
    this.addSql(
      `create index "workspace_events_platform_cursor_index" on "workspace_events" ("platform_id", "cursor") ` +
        `where "channel_id" is null;`,
    );
  }

  override down(): void {
    this.addSql(`drop index "workspace_events_platform_cursor_index";`);
    this.addSql(`drop index "workspace_events_channel_cursor_index";`);
  }
}
