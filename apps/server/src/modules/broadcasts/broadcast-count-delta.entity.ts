import { defineEntity, p } from '@mikro-orm/core';
import { Broadcast } from './broadcast.entity.js';

/**
 * How far a broadcast's counts moved since its start, in shards: the trigger that follows messages adds each
 * transaction's steps to the shard of its database connection, so concurrent status reports of one broadcast do not
 * queue on one row. A broadcast's counts are its row's (set when its audience was resolved) plus its shards' sums.
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
