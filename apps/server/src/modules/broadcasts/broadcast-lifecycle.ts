import type { EntityManager } from '@mikro-orm/postgresql';
import { taskQueue, type JobQueue } from '../../kit/jobs.js';
import { Channel } from '../channels/index.js';
import { cancelQueuedSends, hasQueuedSends } from '../sending/index.js';
import { emitEvent } from '../emitter/index.js';
import { analyzeRecipientsWhenGrown, resolveAudienceChunk, type AudienceCounts } from './broadcast-audience.js';
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

/** The broadcast was cancelled or paused while a chunk was prepared: what the chunk wrote is rolled back. */
class PreparationStopped extends Error {}

/**
 * Contacts resolved and queued with the start: few, so the broadcast's first message goes out while the rest of the
 * audience is resolved and queued behind it, a chunk per transaction, far ahead of the dispatcher.
 */
const FIRST_CHUNK = 500;
const NEXT_CHUNK = 5_000;

/**
 * A chunk's statements grow with the chunk and its personal values: DB_STATEMENT_TIMEOUT_MS guards requests of
 * bounded work, so a preparation's transactions get a limit sized for the largest.
 */
const allowLongStatements = (tx: EntityManager) =>
  tx.execute(`select set_config('statement_timeout', ?, true)`, [PREPARE_STATEMENT_TIMEOUT]);

/** The time a send takes at the broadcast's rate. */
const spacingMs = (broadcast: Broadcast) => 1000 / broadcast.ratePerSecond;

/** What a chunk left: whether the audience has more to resolve, and how many recipients it recorded. */
interface ChunkOutcome {
  more: boolean;
  recipients: number;
}

/**
 * Writes a chunk's outcome on the broadcast, by a conditional update, last: one still in the status the chunk began
 * in, its cursor where the chunk began (a cancel or a pause meanwhile, or another run that moved it first, rolls the
 * chunk back). The counts grow by the chunk's; the first chunk starts it (`sending`, or `completed` at once when its
 * audience had nobody to send).
 */
async function recordChunk(
  tx: EntityManager,
  broadcast: Broadcast,
  chunk: { counts: AudienceCounts; more: boolean; last: string | null; dueAt: Date },
): Promise<void> {
  const first = broadcast.status === 'preparing';
  const none = first && !chunk.more && chunk.counts.queued === 0;
  const [moved] = await tx.execute<{ id: string }[]>(
    `update broadcasts set recipients = recipients + ?, queued = queued + ?, skipped = skipped + ?,
            status = ?, started_at = coalesce(started_at, now()), completed_at = ?, resolving = ?,
            queue_cursor = coalesce(?, queue_cursor), next_due_at = ?, updated_at = now()
      where id = ? and status = ? and queue_cursor is not distinct from ?
     returning id`,
    [
      chunk.counts.recipients,
      chunk.counts.queued,
      chunk.counts.skipped,
      none ? 'completed' : 'sending',
      none ? new Date() : null,
      chunk.more,
      chunk.last,
      chunk.dueAt,
      broadcast.id,
      broadcast.status,
      broadcast.queueCursor ?? null,
    ],
  );
  if (!moved) throw new PreparationStopped();
}

/**
 * Resolves and queues the next chunk of a broadcast's audience in a transaction of its own: the first chunk of a
 * `preparing` one (which starts it), or the next of a `sending` one still resolving, from its cursor. Its recipients
 * are recorded (resolveAudienceChunk) and their messages queued in the send pipeline, due from the broadcast's next
 * free time (its start, or now when that has passed). Returns undefined when there was nothing to do (a job run
 * twice, a broadcast stopped).
 */
async function prepareChunk(em: EntityManager, broadcastId: string): Promise<ChunkOutcome | undefined> {
  return em.fork().transactional(async (tx) => {
    const broadcast = await tx.findOne(Broadcast, {
      id: broadcastId,
      $or: [{ status: 'preparing' }, { status: 'sending', resolving: true }],
    });
    if (!broadcast) return undefined;
    await allowLongStatements(tx);
    const first = broadcast.status === 'preparing';
    const limit = first ? FIRST_CHUNK : NEXT_CHUNK;
    const after = first ? null : (broadcast.queueCursor ?? null);
    const audience = { id: broadcast.id, channelId: broadcast.channel.id, audience: broadcast.audience };
    const resolved = await resolveAudienceChunk(tx, audience, { after, limit });
    const startAt = new Date(Math.max(Date.now(), first ? 0 : (broadcast.nextDueAt?.getTime() ?? 0)));
    const queued = resolved.queued ? await queueBroadcastSends(tx, broadcast, { after, limit }, startAt) : 0;
    const more = resolved.taken === limit;
    const dueAt = new Date(startAt.getTime() + queued * spacingMs(broadcast));
    await recordChunk(tx, broadcast, { counts: resolved, more, last: resolved.last, dueAt });
    return { more, recipients: resolved.recipients };
  });
}

/**
 * Prepares a broadcast a chunk at a time (prepareChunk): the first starts it, the others follow while it is
 * `sending` and resolving, so its first message goes out while the rest of its audience is resolved and queued
 * behind it. A job run again after a crash, or after a resume, goes on from the cursor; a cancel or a pause stops
 * it. From here the recipients and counts follow their messages (the broadcast_recipients_follow trigger), and
 * completeFinished completes it once its audience is resolved and none is left queued.
 */
export async function prepareBroadcast(em: EntityManager, broadcastId: string): Promise<void> {
  for (;;) {
    let outcome: ChunkOutcome | undefined;
    try {
      outcome = await prepareChunk(em, broadcastId);
    } catch (error) {
      if (error instanceof PreparationStopped) return;
      throw error;
    }
    if (!outcome) return;
    await analyzeRecipientsWhenGrown(em.fork(), outcome.recipients);
    if (!outcome.more) return;
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
export async function cancelUnsentSends(em: EntityManager, broadcastId: string): Promise<void> {
  for (let held = 0; held < HELD_PASSES;) {
    const cancelled = await em.fork().transactional((tx) => cancelQueuedSends(tx, { broadcastId }, CANCEL_BATCH));
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
export async function announceCompleted(tx: EntityManager, broadcast: Broadcast): Promise<void> {
  const channel = await tx.findOneOrFail(Channel, broadcast.channel.id, { fields: ['platform'] });
  await emitEvent({ em: tx }, channel.platform.id, {
    type: 'broadcast.completed',
    timestamp: broadcast.completedAt!.toISOString(),
    data: { channelId: broadcast.channel.id, broadcast: await broadcastView(tx, broadcast) },
  });
  await tx.nativeUpdate(Broadcast, { id: broadcast.id }, { completedEventAt: new Date() });
}

/**
 * Completes the sending broadcasts whose audience is resolved and none of whose recipients is still queued (their
 * row's count plus its shards'), in one statement. Once its audience is resolved, recipients only leave `queued`,
 * each in the transaction that moved its message, so a committed zero is final. Returns how many it completed.
 */
export async function completeFinished(tx: EntityManager): Promise<number> {
  const rows = await tx.execute<{ id: string }[]>(
    `update broadcasts b set status = 'completed', completed_at = now(), updated_at = now()
      where b.status = 'sending' and not b.resolving
        and b.queued + coalesce((select sum(d.queued) from broadcast_count_deltas d where d.broadcast_id = b.id), 0) = 0
     returning b.id`,
  );
  return rows.length;
}
