import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import { roundRobin } from '../../kit/round-robin.js';
import { periodicWorker } from '../../kit/periodic-worker.js';
import { Channel } from '../channels/index.js';
import { announceCompleted, completeFinished, queuePreparation } from './broadcast-lifecycle.js';
import { Broadcast } from './broadcast.entity.js';

/** Completions announced per transaction. */
const ANNOUNCE_BATCH = 100;
/** Due broadcasts taken per transaction. */
const DUE_BATCH = 100;

/**
 * Takes the scheduled broadcasts whose time has come: each becomes `preparing`, its preparation queued, the
 * platforms' in turns (one of each platform's, oldest first, then the next of each), so one platform's many due
 * broadcasts do not hold another's behind them; the preparations' queue keeps that order and caps each platform.
 * Cheap (no audience is resolved here), in a transaction of its own; SKIP LOCKED lets instances share the work.
 * Returns how many it took.
 */
async function takeDue(em: EntityManager, jobs: JobQueue): Promise<number> {
  return em.fork().transactional(async (tx) => {
    const due = await tx.find(
      Broadcast,
      { status: 'scheduled', scheduledAt: { $lte: new Date() } },
      {
        fields: ['id', 'channel'],
        orderBy: { scheduledAt: 'asc', id: 'asc' },
        limit: DUE_BATCH,
        lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
      },
    );
    if (due.length === 0) return 0;
    const channels = await tx.find(Channel, { id: { $in: due.map((b) => b.channel.id) } }, { fields: ['platform'] });
    const platformOf = new Map(channels.map((channel) => [channel.id, channel.platform.id]));
    await tx.nativeUpdate(Broadcast, { id: { $in: due.map((b) => b.id) } }, { status: 'preparing' });
    for (const broadcast of roundRobin(due, (b) => platformOf.get(b.channel.id)!))
      await queuePreparation(tx, jobs, broadcast.id, platformOf.get(broadcast.channel.id)!);
    return due.length;
  });
}

/** Completes the broadcasts with no recipient left queued, and queues `broadcast.completed` for each completion. */
async function announceCompletions(em: EntityManager): Promise<void> {
  await em.fork().transactional(async (tx) => {
    await completeFinished(tx);
    const completed = await tx.find(
      Broadcast,
      { status: 'completed', completedEventAt: null },
      { limit: ANNOUNCE_BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    for (const broadcast of completed) await announceCompleted(tx, broadcast);
  });
}

/**
 * Scheduled broadcasts are queued to prepare within a second of their time, and finished ones complete and are
 * announced within a second, on every instance that runs the job worker.
 */
export const broadcastScheduler = periodicWorker({
  name: 'broadcasts.scheduler',
  everyMs: 1000,
  failure: 'broadcast tick failed; retrying on the next tick',
  async run({ em, jobs }) {
    while ((await takeDue(em, jobs)) === DUE_BATCH);
    await announceCompletions(em);
  },
});
