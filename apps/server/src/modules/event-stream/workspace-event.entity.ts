import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import { Platform } from '../platforms/index.js';

/**
 * One event as the live stream replays it, for 24 hours. `cursor` is the stream's event id: given at commit, in
 * commit order, by the `workspace_events_number` trigger (workspace-event.sql.ts), so it is null only inside the
 * recording transaction. `channel` is null for a platform's own events (ticket.closed).
 */
const WorkspaceEventSchema = defineEntity({
  name: 'WorkspaceEvent',
  tableName: 'workspace_events',
  properties: {
    id: uuidPrimaryKey(),
    cursor: p.bigint('string').nullable().unique(),
    platform: () => p.manyToOne(Platform).deleteRule('cascade'),
    channel: () => p.manyToOne(Channel).nullable().deleteRule('cascade'),
    type: p.string().length(100),
    payload: p.json<Record<string, unknown>>(),
    createdAt: createdAtColumn(),
  },
  indexes: [
    // Retention deletes by age.
    { name: 'workspace_events_created_at_index', properties: ['createdAt'] },
    // A replay (Last-Event-ID) reads its channels' events after a cursor: from their own index entries, not by
    // walking every tenant's events in cursor order.
    { name: 'workspace_events_channel_cursor_index', properties: ['channel', 'cursor'] },
    // The same for a platform's own events (no channel), for keys with platform access.
    {
      name: 'workspace_events_platform_cursor_index',
      expression:
        'create index "workspace_events_platform_cursor_index" on "workspace_events" ("platform_id", "cursor") ' +
        'where "channel_id" is null',
    },
  ],
});
export class WorkspaceEvent extends WorkspaceEventSchema.class {}
WorkspaceEventSchema.setClass(WorkspaceEvent);
