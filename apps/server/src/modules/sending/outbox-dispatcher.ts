import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BackgroundWorker, RunningWorker } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import { writeStatuses } from '../messages/index.js';
import { sendBatch, type Dispatch, type DispatcherOptions } from './hand-over.js';
import {
  abandonedMoves,
  beat,
  channelsWithDueSends,
  claimDueSends,
  forget,
  HEARTBEAT_EVERY_MS,
  HEARTBEAT_STALE_SECONDS,
  outboxBacklog,
  releaseAbandonedClaims,
} from './outbox-rows.js';
import { channelPaceKey, returnSendSlots, sleepUntil, takeSendSlots } from './send-pace.js';

/** How often the dispatcher looks for channels with due messages (scheduled ones come due by the clock). */
const DISCOVER_EVERY_MS = 200;
/** A claim takes this much of the channel's budget at once: small enough that cancelling stops sends at once. */
const BATCH_SECONDS = 0.2;
const MAX_BATCH = 500;
/** Batches of one channel whose calls may still be running while the next is claimed. */
const BATCHES_IN_FLIGHT = 4;

/**
 * The send pipeline's dispatcher, one per instance with the worker. Each channel with due messages is drained by
 * its own loop (a channel's backlog never holds up another's): take a batch of slots from the channel's budget,
 * reserve that many due messages, and as each slot comes hand its message over (`sending`, committed; or
 * `cancelled` when its broadcast was cancelled or its contact's consent is gone) and make the call at once; record
 * the answers in one statement per batch. A heartbeat tells other instances it is alive; a dead one's messages in a
 * call end `outcome_unknown`, its reservations are released.
 */
export function sendDispatcher(options: DispatcherOptions): BackgroundWorker {
  return {
    name: 'send dispatcher',
    start: ({ em, logger }) => startDispatcher(em, logger.child({ component: 'send-dispatcher' }), options),
  };
}

/** Ends the sends of dispatchers that died in a call (`outcome_unknown`) and frees those they only reserved. */
async function endAbandoned({ em }: Dispatch): Promise<number> {
  const ended = await em().transactional((tx) => writeStatuses(tx, abandonedMoves(HEARTBEAT_STALE_SECONDS)));
  await releaseAbandonedClaims(em(), HEARTBEAT_STALE_SECONDS);
  return ended.length;
}

function heartbeatOf(dispatch: Dispatch): () => Promise<void> {
  const { id, em, log } = dispatch;
  let healthySince: number | undefined;
  return async () => {
    try {
      await beat(em(), id);
      healthySince ??= Date.now();
      // Declaring others dead needs our own view to be trustworthy: after an outage every heartbeat is stale, so
      // wait until live dispatchers have had time to beat again.
      if (Date.now() - healthySince >= 2 * HEARTBEAT_EVERY_MS) {
        const ended = await endAbandoned(dispatch);
        if (ended > 0)
          log.warn({ ended }, 'messages of a dispatcher that died mid-send recorded failed (outcome_unknown)');
      }
    } catch (error) {
      healthySince = undefined;
      log.warn({ reason: (error as Error).message }, 'send dispatcher heartbeat failed');
    }
  };
}

/** One channel's lane: claims and sends its due messages at the channel's pace until none are left. */
async function drain(dispatch: Dispatch, channelId: string) {
  const { id, em, options } = dispatch;
  const batch = Math.max(1, Math.min(MAX_BATCH, Math.ceil(options.ratePerSecond * BATCH_SECONDS)));
  const inFlight = new Set<Promise<void>>();
  while (!dispatch.stopping) {
    const slots = await takeSendSlots(em(), channelPaceKey(channelId), batch, options.ratePerSecond);
    await sleepUntil(slots.startMs);
    const claimed = await claimDueSends(em(), id, channelId, batch);
    if (claimed.length > 0) {
      const sending = sendBatch(dispatch, claimed, slots)
        .then(() => undefined)
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    }
    // Only once the batch is under way: a refund failing (an outage starting) must not strand the claimed messages.
    await returnSendSlots(em(), slots, batch - claimed.length);
    if (claimed.length === 0) break;
    if (inFlight.size >= BATCHES_IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}

function startDispatcher(root: EntityManager, log: Logger, options: DispatcherOptions): RunningWorker {
  const dispatch: Dispatch = {
    id: randomUUID(),
    em: () => root.fork(),
    log,
    options,
    stopping: false,
    gone: false,
  };
  const { id, em } = dispatch;
  const lanes = new Map<string, Promise<void>>();

  function startLane(channelId: string) {
    if (lanes.has(channelId)) return;
    const lane = drain(dispatch, channelId)
      .catch((error: unknown) => log.warn({ channelId, reason: (error as Error).message }, 'send lane stopped'))
      .finally(() => lanes.delete(channelId));
    lanes.set(channelId, lane);
  }

  async function discover() {
    try {
      for (const channelId of await channelsWithDueSends(em())) if (!dispatch.stopping) startLane(channelId);
    } catch (error) {
      log.debug({ reason: (error as Error).message }, 'looking for due sends failed');
    }
  }

  const heartbeat = heartbeatOf(dispatch);
  void heartbeat();
  const heartbeats = setInterval(() => void heartbeat(), HEARTBEAT_EVERY_MS);
  let discovering = Promise.resolve();
  const discovery = setInterval(() => {
    discovering = discovering.then(discover);
  }, DISCOVER_EVERY_MS);
  log.info(
    { dispatcherId: id, ratePerSecond: options.ratePerSecond, staleAfterSeconds: HEARTBEAT_STALE_SECONDS },
    'send dispatcher started',
  );

  return {
    backlog: (manager) => outboxBacklog(manager),
    async stop(timeoutMs) {
      dispatch.stopping = true;
      clearInterval(discovery);
      clearInterval(heartbeats);
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
      const drained = await Promise.race([
        Promise.all([discovering, ...lanes.values()]).then(() => true),
        timeout.then(() => false),
      ]);
      dispatch.gone = true;
      // Nothing of ours is left `sending` or reserved: a restarted instance need not wait for this heartbeat to go
      // stale.
      if (drained) await forget(em(), id).catch(() => undefined);
    },
  };
}
