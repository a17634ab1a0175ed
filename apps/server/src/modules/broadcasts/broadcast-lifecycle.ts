import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { queueWebhookEvent } from '../webhooks/index.js';
import { resolveAudience } from './broadcast-audience.js';
import { queueBroadcastSends } from './broadcast-sends.js';
import { Broadcast } from './broadcast.entity.js';
import { broadcastView } from './broadcast-view.js';

/** The statement timeout of a broadcast's start (PostgreSQL units). */
const START_STATEMENT_TIMEOUT = '120s';

/**
 * Starts a broadcast in the caller's transaction: `sending` from now, its audience resolved into recipients (one
 * statement), each recipient to send queued in the send pipeline, and `completed` at once when there is none (the
 * announcer queues its event). From here the recipients and counts follow their messages (the
 * broadcast_recipients_follow trigger), and completeFinished completes it once none is left queued.
 */
export async function startBroadcast(tx: EntityManager, broadcast: Broadcast): Promise<void> {
  // Its two statements grow with the audience (one row per recipient, then one message each): DB_STATEMENT_TIMEOUT_MS
  // guards requests of bounded work, so this transaction alone gets a limit sized for the largest audience.
  await tx.execute(`select set_config('statement_timeout', ?, true)`, [START_STATEMENT_TIMEOUT]);
  const startedAt = new Date();
  await tx.nativeUpdate(Broadcast, { id: broadcast.id }, { status: 'sending', startedAt });
  const queued = await resolveAudience(tx, {
    id: broadcast.id,
    channelId: broadcast.channel.id,
    audience: broadcast.audience,
  });
  if (queued > 0) await queueBroadcastSends(tx, broadcast, startedAt);
  else
    await tx.nativeUpdate(
      Broadcast,
      { id: broadcast.id, status: 'sending' },
      { status: 'completed', completedAt: new Date() },
    );
}

/**
 * Queues `broadcast.completed` for a completed broadcast whose event is not queued yet, and records that it is, in the
 * caller's transaction (the row locked by the caller, so the event is queued once).
 */
export async function announceCompleted(tx: EntityManager, jobs: JobQueue, broadcast: Broadcast): Promise<void> {
  const channel = await tx.findOneOrFail(Channel, broadcast.channel.id, { fields: ['platform'] });
  await queueWebhookEvent({ em: tx }, jobs, channel.platform.id, {
    type: 'broadcast.completed',
    timestamp: broadcast.completedAt!.toISOString(),
    data: { channelId: broadcast.channel.id, broadcast: await broadcastView(tx, broadcast) },
  });
  await tx.nativeUpdate(Broadcast, { id: broadcast.id }, { completedEventAt: new Date() });
}

/**
 * Completes the sending broadcasts none of whose recipients is still queued (their row's count plus its shards'), in
 * one statement. Once sending starts, recipients only leave `queued`, each in the transaction that moved its message,
 * so a committed zero is final. Returns how many it completed.
 */
export async function completeFinished(tx: EntityManager): Promise<number> {
  const rows = await tx.execute<{ id: string }[]>(
    `update broadcasts b set status = 'completed', completed_at = now(), updated_at = now()
      where b.status = 'sending'
        and b.queued + coalesce((select sum(d.queued) from broadcast_count_deltas d where d.broadcast_id = b.id), 0) = 0
     returning b.id`,
  );
  return rows.length;
}
