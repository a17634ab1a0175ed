import { defineEntity, p } from '@mikro-orm/core';
import { BROADCAST_PAUSED_REASONS, BROADCAST_STATUSES, type BroadcastAudience } from '@switchboard/contract';
import { createdAtColumn, timeOrderedUuidPrimaryKey, updatedAtColumn } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import type { OutboundTemplateParts } from '../messages/index.js';

/**
 * A broadcast: a template sent to an audience of the channel's contacts, with its recipients' counts kept on the row
 * (each moved in the transaction that moves a recipient), so listings read them without counting.
 */
const BroadcastSchema = defineEntity({
  name: 'Broadcast',
  tableName: 'broadcasts',
  properties: {
    /** Time-ordered (kit/columns.ts): it leads the keys of the recipients, written in bulk when it starts. */
    id: timeOrderedUuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    name: p.string().length(120),
    templateName: p.string().length(200),
    /** The template's language, resolved when the broadcast was created. */
    language: p.string().length(20),
    /** As given, placeholders unfilled: each recipient's values are filled when its send is queued. */
    variables: p.json<string[]>(),
    /** The template's header and button values as given (placeholders unfilled), checked against the template. */
    templateParts: p.json<OutboundTemplateParts>().nullable(),
    audience: p.json<BroadcastAudience>(),
    status: p.enum(BROADCAST_STATUSES),
    /** Why it is `paused`; null otherwise. */
    pausedReason: p.enum(BROADCAST_PAUSED_REASONS).nullable(),
    scheduledAt: p.datetime().nullable(),
    ratePerSecond: p.integer(),
    recipients: p.integer().default(0),
    queued: p.integer().default(0),
    sent: p.integer().default(0),
    delivered: p.integer().default(0),
    read: p.integer().default(0),
    failed: p.integer().default(0),
    skipped: p.integer().default(0),
    /** Its audience is still being resolved and queued, a chunk at a time, after it started `sending`. */
    resolving: p.boolean().default(false),
    /** The last phone (in phone order) of its audience resolved and queued; null before the first chunk. */
    queueCursor: p.string().length(20).nullable(),
    /** When the next chunk's first message is due: the broadcast's rate holds across its chunks. */
    nextDueAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    /** When `broadcast.completed` was queued (or, for a cancelled or seeded one, that none will be). */
    completedEventAt: p.datetime().nullable(),
    updatedAt: updatedAtColumn(),
  },
  uniques: [{ name: 'broadcasts_channel_id_name_unique', properties: ['channel', 'name'] }],
  indexes: [
    // The listing order, newest first (see contacts_channel_recent_index for why a statement).
    {
      name: 'broadcasts_channel_recent_index',
      expression:
        'create index "broadcasts_channel_recent_index" on "broadcasts" ("channel_id", "created_at" desc, "id" desc)',
    },
    // What the scheduler looks for: the scheduled ones, by their time.
    {
      name: 'broadcasts_due_index',
      expression: 'create index "broadcasts_due_index" on "broadcasts" ("scheduled_at") where "status" = \'scheduled\'',
    },
    // The completed broadcasts whose event is still to be queued.
    {
      name: 'broadcasts_unannounced_index',
      expression:
        'create index "broadcasts_unannounced_index" on "broadcasts" ("completed_at") ' +
        'where "status" = \'completed\' and "completed_event_at" is null',
    },
  ],
});
export class Broadcast extends BroadcastSchema.class {}
BroadcastSchema.setClass(Broadcast);

/**
 * How far a broadcast's counts moved since its start, in shards: the trigger that follows messages (broadcast.sql.ts)
 * adds each transaction's steps to the shard of its database connection, so concurrent status reports of one
 * broadcast do not queue on one row. A broadcast's counts are its row's (set when its audience was resolved) plus its
 * shards' sums.
 */
const BroadcastCountDeltaSchema = defineEntity({
  name: 'BroadcastCountDelta',
  tableName: 'broadcast_count_deltas',
  properties: {
    broadcast: () => p.manyToOne(Broadcast).primary().deleteRule('cascade'),
    shard: p.smallint().primary(),
    queued: p.integer().default(0),
    sent: p.integer().default(0),
    delivered: p.integer().default(0),
    read: p.integer().default(0),
    failed: p.integer().default(0),
    skipped: p.integer().default(0),
  },
});
export class BroadcastCountDelta extends BroadcastCountDeltaSchema.class {}
BroadcastCountDeltaSchema.setClass(BroadcastCountDelta);
