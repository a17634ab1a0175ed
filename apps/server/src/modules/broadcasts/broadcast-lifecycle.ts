import type { EntityManager } from '@mikro-orm/postgresql';
import { taskQueue, type JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { cancelQueuedSends, hasQueuedSends } from '../messages/index.js';
import { emitEvent } from '../emitter/index.js';
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

/** The broadcast was cancelled or paused while it prepared: what the preparation wrote is rolled back. */
class PreparationStopped extends Error {}

/**
 * Sends queued with the audience: few, so the broadcast's first message goes while the rest are queued, a chunk per
 * transaction (QUEUE_CHUNK), each ahead of the dispatcher by far.
 */
const FIRST_CHUNK = 500;
const QUEUE_CHUNK = 5_000;

/**
 * The audience statement grows with the audience, and a chunk with its personal values: DB_STATEMENT_TIMEOUT_MS
 * guards requests of bounded work, so a preparation's transactions get a limit sized for the largest.
 */
const allowLongStatements = (tx: EntityManager) =>
  tx.execute(`select set_config('statement_timeout', ?, true)`, [PREPARE_STATEMENT_TIMEOUT]);

/** The time a send takes at the broadcast's rate. */
const spacingMs = (broadcast: Broadcast) => 1000 / broadcast.ratePerSecond;

/**
 * Starts a `preparing` broadcast in a transaction of its own: its audience resolved into recipients (one statement),
 * the first few of them queued in the send pipeline, and the broadcast `sending` with its counts (`completed` at once
 * when none is to send; the announcer queues its event) and the cursor of its queueing. The broadcast row is written
 * last, so a cancel or a pause meanwhile waits for nothing: the start then finds it cancelled or paused and rolls
 * back (a resume prepares it again). Returns how many recipients it recorded (0: nothing to do, e.g. a job run twice).
 */
async function startBroadcast(em: EntityManager, broadcastId: string): Promise<number> {
  return em.fork().transactional(async (tx) => {
    const broadcast = await tx.findOne(Broadcast, { id: broadcastId, status: 'preparing' });
    if (!broadcast) return 0;
    await allowLongStatements(tx);
    const startedAt = new Date();
    const counts = await resolveAudience(tx, {
      id: broadcast.id,
      channelId: broadcast.channel.id,
      audience: broadcast.audience,
    });
    const first = await queueBroadcastSends(tx, broadcast, { after: null, limit: FIRST_CHUNK }, startedAt);
    const none = counts.queued === 0;
    const started = await tx.nativeUpdate(
      Broadcast,
      { id: broadcast.id, status: 'preparing' },
      {
        ...counts,
        status: none ? 'completed' : 'sending',
        startedAt,
        completedAt: none ? new Date() : null,
        unqueued: counts.queued - first.queued,
        queueCursor: first.last,
        nextDueAt: new Date(startedAt.getTime() + first.queued * spacingMs(broadcast)),
      },
    );
    if (started !== 1) throw new PreparationStopped();
    return counts.recipients;
  });
}

/**
 * Queues the next chunk of a sending broadcast's recipients in a transaction of its own, after its cursor, due from
 * its next free time (or now, when that has passed). The cursor moves by a conditional update, last: a cancel or a
 * pause meanwhile (the broadcast no longer `sending`) or another run that moved it first rolls the chunk back.
 * Returns whether any recipient is left to queue.
 */
async function queueNextChunk(em: EntityManager, broadcastId: string): Promise<boolean> {
  try {
    return await em.fork().transactional(async (tx) => {
      const broadcast = await tx.findOne(Broadcast, { id: broadcastId, status: 'sending', unqueued: { $gt: 0 } });
      if (!broadcast) return false;
      await allowLongStatements(tx);
      const startAt = new Date(Math.max(Date.now(), broadcast.nextDueAt?.getTime() ?? 0));
      const chunk = { after: broadcast.queueCursor ?? null, limit: QUEUE_CHUNK };
      const { queued, last } = await queueBroadcastSends(tx, broadcast, chunk, startAt);
      const moved = await tx.nativeUpdate(
        Broadcast,
        { id: broadcast.id, status: 'sending', queueCursor: broadcast.queueCursor },
        {
          // None queued: the rest left `queued` meanwhile (a contact's recipient skipped), nothing is left to queue.
          unqueued: queued === 0 ? 0 : broadcast.unqueued - queued,
          queueCursor: last ?? broadcast.queueCursor,
          nextDueAt: new Date(startAt.getTime() + queued * spacingMs(broadcast)),
        },
      );
      if (moved !== 1) throw new PreparationStopped();
      return queued > 0 && broadcast.unqueued - queued > 0;
    });
  } catch (error) {
    if (error instanceof PreparationStopped) return false;
    throw error;
  }
}

/**
 * Prepares a broadcast: starts it (startBroadcast) when it is `preparing`, then queues the rest of its recipients a
 * chunk at a time (queueNextChunk) while it is `sending` with some left, so its first message goes out while the
 * others are queued. A job run again after a crash, or after a resume, goes on from the cursor. From here the
 * recipients and counts follow their messages (the broadcast_recipients_follow trigger), and completeFinished
 * completes it once none is left queued (a recipient not queued yet counts as queued).
 */
export async function prepareBroadcast(em: EntityManager, broadcastId: string): Promise<void> {
  try {
    const recipients = await startBroadcast(em, broadcastId);
    await analyzeRecipientsWhenGrown(em.fork(), recipients);
  } catch (error) {
    if (!(error instanceof PreparationStopped)) throw error;
    return;
  }
  while (await queueNextChunk(em, broadcastId));
}

/** Sends a cancelled broadcast's sweep marks cancelled per transaction. */
const CANCEL_BATCH = 1000;
/** Passes that find only sends a hand-over holds before the job gives up (pg-boss retries it). */
const HELD_PASSES = 50;
const HELD_WAIT_MS = 100;

/**
 * Up to `limit` of a cancelled broadcast's recipients whose messages were never queued (after its cursor) become
 * `skipped` (reason `cancelled`) in one statement, its counts moved with them. Returns how many it skipped.
 */
async function skipUnqueuedRecipients(tx: EntityManager, broadcastId: string, limit: number): Promise<number> {
  const [row] = await tx.execute<{ moved: number }[]>(
    `with b as (select id, queue_cursor from broadcasts where id = ? and status = 'cancelled' and unqueued > 0
                  for update),
          moved as (
            update broadcast_recipients r set status = 'skipped', reason = 'cancelled', updated_at = now()
              from (select u.phone from broadcast_recipients u, b
                     where u.broadcast_id = b.id and u.status = 'queued' and u.phone > coalesce(b.queue_cursor, '')
                     order by u.phone limit ?) s
             where r.broadcast_id = ? and r.phone = s.phone
            returning 1),
          n as (select count(*)::int as moved from moved)
     update broadcasts set queued = queued - n.moved, skipped = skipped + n.moved,
            unqueued = case when n.moved < ? then 0 else unqueued - n.moved end
       from n, b where broadcasts.id = b.id
     returning n.moved`,
    [broadcastId, limit, broadcastId, limit],
  );
  return row?.moved ?? 0;
}

/**
 * A cancelled broadcast's sweep: its recipients never queued become `skipped`, then its sends not handed over yet
 * `cancelled` (reason `cancelled`; their recipients `skipped`, their events queued), a batch per transaction, until
 * none is left. None of them could be sent meanwhile: a hand-over finds the broadcast stopped.
 */
export async function cancelUnsentSends(em: EntityManager, jobs: JobQueue, broadcastId: string): Promise<void> {
  while ((await em.fork().transactional((tx) => skipUnqueuedRecipients(tx, broadcastId, CANCEL_BATCH))) > 0);
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
  await emitEvent({ em: tx }, channel.platform.id, {
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
