import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import { roundRobin } from '../../kit/round-robin.js';
import type { Logger } from '../../logger.js';
import { provide, serviceKey } from '../../kit/services.js';
import { Channel } from '../channels/index.js';
import { announceCompleted, completeFinished, queuePreparation } from './broadcast-lifecycle.js';
import { Broadcast } from './broadcast.entity.js';

/** How often each instance with the worker looks for broadcasts due to start and completions to announce. */
const TICK_MS = 1000;
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
async function announceCompletions(em: EntityManager, jobs: JobQueue): Promise<void> {
  await em.fork().transactional(async (tx) => {
    await completeFinished(tx);
    const completed = await tx.find(
      Broadcast,
      { status: 'completed', completedEventAt: null },
      { limit: ANNOUNCE_BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    for (const broadcast of completed) await announceCompleted(tx, jobs, broadcast);
  });
}

export interface BroadcastScheduler {
  /** Messages a second a channel sends at most (SEND_RATE_PER_CHANNEL): a broadcast's default and ceiling. */
  channelRate: number;
  /** One pass: every due broadcast queued to prepare, every finished one completed and announced (the timer's). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

interface SchedulerDeps {
  em: EntityManager;
  jobs: JobQueue;
  logger: Logger;
  /** Whether this instance runs the timer (DELIVERY_WORKER). */
  run: boolean;
  channelRate: number;
}

function createScheduler({ em, jobs, logger, run, channelRate }: SchedulerDeps): BroadcastScheduler {
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    while ((await takeDue(em, jobs)) === DUE_BATCH);
    await announceCompletions(em, jobs);
  };
  const timer = run
    ? setInterval(() => {
        // No stack: a failed tick is mostly the database being away, which the server reports once on its own.
        running = running
          .then(tick)
          .catch((error: unknown) =>
            logger.warn({ reason: (error as Error).message }, 'broadcast tick failed; retrying on the next tick'),
          );
      }, TICK_MS)
    : undefined;
  return {
    channelRate,
    tick,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

const BROADCAST_SCHEDULER = serviceKey<BroadcastScheduler>('broadcast-scheduler');

/**
 * Scheduled broadcasts are queued to prepare within a tick of their time, and finished ones complete and are
 * announced within a tick, on every instance that runs the worker (DELIVERY_WORKER).
 */
export const broadcastSchedulerService = provide({
  key: BROADCAST_SCHEDULER,
  start: ({ em, jobs, logger, config }) =>
    createScheduler({ em, jobs, logger, run: config.DELIVERY_WORKER, channelRate: config.SEND_RATE_PER_CHANNEL }),
  stop: (scheduler) => scheduler.stop(),
});
