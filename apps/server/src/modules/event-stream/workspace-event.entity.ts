import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import { Platform } from '../platforms/index.js';

/**
 * One event as the live stream replays it, for 24 hours. `cursor` is the stream's event id: given at commit, in
 * commit order, by the `workspace_events_number` trigger (Migration20261128140000), so it is null only inside the
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
  // Retention deletes by age.
  indexes: [{ name: 'workspace_events_created_at_index', properties: ['createdAt'] }],
});
export class WorkspaceEvent extends WorkspaceEventSchema.class {}
WorkspaceEventSchema.setClass(WorkspaceEvent);
