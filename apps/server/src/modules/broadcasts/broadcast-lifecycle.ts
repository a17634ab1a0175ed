import type { EntityManager } from '@mikro-orm/postgresql';
import { taskQueue, type JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { cancelQueuedSends, hasQueuedSends } from '../sending/index.js';
import { queueWebhookEvent } from '../webhooks/index.js';
import { analyzeRecipientsWhenGrown, resolveAudience } from './broadcast-audience.js';
import { queueBroadcastSends } from './broadcast-sends.js';
import { Broadcast } from './broadcast.entity.js';
import { broadcastView } from './broadcast-view.js';

/** The statement timeout of a broadcast's preparation (PostgreSQL units). */
const PREPARE_STATEMENT_TIMEOUT = '120s';

/**
 * Broadcasts to prepare, one job each, filed under their platform's share: the queue runs at most 2 of a platform at
 * once across every instance, the others waiting in order, and takes the platforms' jobs round-robin.
 */
export const PREPARE_QUEUE = taskQueue<{ broadcastId: string }>('broadcasts.prepare');
/** Cancelled broadcasts whose sends not handed over yet are still to be marked cancelled. */
export const CANCEL_SENDS_QUEUE = taskQueue<{ broadcastId: string }>('broadcasts.cancel-sends');

/** Queues a `preparing` broadcast's preparation in the caller's transaction. */
export const queuePreparation = (tx: EntityManager, jobs: JobQueue, broadcastId: string, platformId: string) =>
  jobs.enqueueTask(tx, PREPARE_QUEUE, { broadcastId }, { share: platformId });

/** The broadcast was cancelled while it prepared: what the preparation wrote is rolled back. */
class PreparationCancelled extends Error {}

/**
 * Prepares a `preparing` broadcast in a transaction of its own: its audience resolved into recipients (one statement),
 * each recipient to send queued in the send pipeline, and the broadcast `sending` with its counts (`completed` at once
 * when none is to send; the announcer queues its event). The broadcast row is written last, so a cancel or a pause
 * meanwhile waits for nothing: the preparation then finds it cancelled or paused and rolls back (a resume prepares it
 * again). From here the recipients and counts follow their messages (the broadcast_recipients_follow trigger), and
 * completeFinished completes it once none is left queued. Nothing to do for a broadcast no longer preparing (a job
 * run twice).
 */
export async function prepareBroadcast(em: EntityManager, broadcastId: string): Promise<void> {
  try {
    const recipients = await em.fork().transactional(async (tx) => {
      const broadcast = await tx.findOne(Broadcast, { id: broadcastId, status: 'preparing' });
      if (!broadcast) return 0;
      // Its two statements grow with the audience (one row per recipient, then one message each):
      // DB_STATEMENT_TIMEOUT_MS guards requests of bounded work, so this transaction gets a limit sized for the
      // largest.
      await tx.execute(`select set_config('statement_timeout', ?, true)`, [PREPARE_STATEMENT_TIMEOUT]);
      const startedAt = new Date();
      const counts = await resolveAudience(tx, {
        id: broadcast.id,
        channelId: broadcast.channel.id,
        audience: broadcast.audience,
      });
      if (counts.queued > 0) await queueBroadcastSends(tx, broadcast, startedAt);
      const none = counts.queued === 0;
      const started = await tx.nativeUpdate(
        Broadcast,
        { id: broadcast.id, status: 'preparing' },
        { ...counts, status: none ? 'completed' : 'sending', startedAt, completedAt: none ? new Date() : null },
      );
      if (started !== 1) throw new PreparationCancelled();
      return counts.recipients;
    });
    await analyzeRecipientsWhenGrown(em.fork(), recipients);
  } catch (error) {
    if (!(error instanceof PreparationCancelled)) throw error;
  }
}

/** Sends a cancelled broadcast's sweep marks cancelled per transaction. */
const CANCEL_BATCH = 1000;
/** Passes that find only sends a hand-over holds before the job gives up (pg-boss retries it). */
const HELD_PASSES = 50;
const HELD_WAIT_MS = 100;

/**
 * A cancelled broadcast's sweep: its sends not handed over yet become `cancelled` (reason `cancelled`; their
 * recipients `skipped`, their events queued), a batch per transaction, until none is left. None of them could be
 * sent meanwhile: a hand-over finds the broadcast stopped.
 */
export async function cancelUnsentSends(em: EntityManager, jobs: JobQueue, broadcastId: string): Promise<void> {
  for (let held = 0; held < HELD_PASSES;) {
    const cancelled = await em.fork().transactional((tx) => cancelQueuedSends(tx, jobs, { broadcastId }, CANCEL_BATCH));
    if (cancelled > 0) continue;
    if (!(await hasQueuedSends(em.fork(), { broadcastId }))) return;
    held++;
    await new Promise((resolve) => setTimeout(resolve, HELD_WAIT_MS));
  }
  throw new Error(`broadcast ${broadcastId}: sends still held by a hand-over; retrying`);
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
