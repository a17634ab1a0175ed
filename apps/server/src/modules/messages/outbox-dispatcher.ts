import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../kit/errors.js';
import type { BackgroundWorker, JobQueue, RunningWorker } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import type { BroadcastStops } from './broadcast-stops.port.js';
import { ProviderCallError, SendNotMadeError, type OutboundSessionMessage } from './messaging-provider.port.js';
import type { MessagingProviders } from './messaging-providers.js';
import {
  abandonedMoves,
  beat,
  channelsWithDueSends,
  claimDueSends,
  deferThrottled,
  forget,
  handOverMoves,
  holdPausedSends,
  HEARTBEAT_STALE_SECONDS,
  outboxBacklog,
  outcomeMoves,
  releaseAbandonedClaims,
  type ClaimedSend,
  type SendOutcome,
} from './outbox-rows.js';
import { channelPaceKey, returnSendSlots, sleepUntil, takeSendSlots } from './send-pace.js';
import { writeStatuses } from './status-writer.js';

export interface DispatcherOptions {
  /** The channel's budget, messages a second (SEND_RATE_PER_CHANNEL). */
  ratePerSecond: number;
  providers: () => MessagingProviders;
  /** Which broadcasts were cancelled or paused (the broadcasts module answers). */
  stops: () => BroadcastStops;
}

/** How often the dispatcher looks for channels with due messages (scheduled ones come due by the clock). */
const DISCOVER_EVERY_MS = 200;
const HEARTBEAT_EVERY_MS = 2_000;
/** A claim takes this much of the channel's budget at once: small enough that cancelling stops sends at once. */
const BATCH_SECONDS = 0.2;
const MAX_BATCH = 500;
/** Batches of one channel whose calls may still be running while the next is claimed. */
const BATCHES_IN_FLIGHT = 4;
const STORE_RETRY_MS = 500;
/**
 * Calls of one send the provider may throttle: it is queued again after each but the last, which fails it (its
 * error `retryable`), so a number throttled for good does not hold its sends forever.
 */
const MAX_THROTTLED_ATTEMPTS = 5;
/** The wait before a throttled send's next call, doubled at each attempt. */
const THROTTLE_BACKOFF_SECONDS = 1;

/** A claimed session message as its provider call takes it: the columns the send recorded. */
function sessionMessageOf(send: ClaimedSend): OutboundSessionMessage {
  const { reaction, interactive, location } = send;
  return {
    channelId: send.channel_id,
    to: send.to,
    type: send.type as OutboundSessionMessage['type'],
    text: send.type === 'text' ? (send.body ?? undefined) : undefined,
    mediaUrl: send.media?.url,
    caption: send.media?.caption,
    filename: send.media?.filename,
    replyTo: send.reply_to_provider_id ?? undefined,
    ...(interactive && 'body' in interactive && { interactive }),
    ...(reaction && {
      reaction: { messageId: send.reaction_provider_id ?? reaction.msgid, emoji: reaction.emoji ?? '' },
    }),
    ...(location && { location }),
  };
}

/**
 * What one provider call came to; a throw that is not the provider's answer leaves the outcome unknown, unless the
 * provider says nothing went out (SendNotMadeError): then the message is sent later, not lost. A throttled call
 * (the provider's throughput limit) queues the message again after a growing wait, up to MAX_THROTTLED_ATTEMPTS.
 */
async function callProvider(providers: MessagingProviders, send: ClaimedSend): Promise<SendOutcome> {
  try {
    const provider = providers.get(send.provider);
    if (!provider) throw new AppError(503, 'service_unavailable', `No messaging provider "${send.provider}" here.`);
    const { providerMessageId } =
      send.type === 'template'
        ? await provider.send({
            channelId: send.channel_id,
            to: send.to,
            templateName: send.template_name ?? '',
            language: send.language ?? '',
            variables: send.variables ?? [],
            ...send.template_parts,
          })
        : await provider.sendSession(sessionMessageOf(send));
    return { id: send.id, status: 'accepted', providerMessageId };
  } catch (error) {
    if (error instanceof SendNotMadeError) return { id: send.id, status: 'queued' };
    if (!(error instanceof AppError))
      return { id: send.id, status: 'failed', errorCode: null, errorTitle: null, reason: 'outcome_unknown' };
    const failure = error instanceof ProviderCallError ? error : undefined;
    if (failure?.throttled && send.attempts + 1 < MAX_THROTTLED_ATTEMPTS)
      return { id: send.id, status: 'queued', retryInSeconds: THROTTLE_BACKOFF_SECONDS * 2 ** send.attempts };
    return {
      id: send.id,
      status: 'failed',
      errorCode: failure?.providerCode ?? null,
      errorTitle: error.message.slice(0, 500),
      reason: null,
    };
  }
}

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
    start: ({ em, jobs, logger }) => startDispatcher(em, jobs, logger.child({ component: 'send-dispatcher' }), options),
  };
}

/**
 * What every part of one dispatcher shares; `stopping` ends its lanes after their current batch, `gone` (the stop's
 * time is up: the pool closes next) ends the retries of what could not be stored, as a crash would.
 */
interface Dispatch {
  id: string;
  em: () => EntityManager;
  jobs: JobQueue;
  log: Logger;
  options: DispatcherOptions;
  stopping: boolean;
  gone: boolean;
}

/**
 * Runs `store` until PostgreSQL takes it (an outage waits here; a live dispatcher's heartbeat resumes with it), or
 * until the dispatcher is gone: what it leaves is then another instance's to end, as after a crash (a send handed
 * over ends `outcome_unknown`, one only reserved is released).
 */
async function untilStored<T>(dispatch: Dispatch, what: string, messages: number, store: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await store();
    } catch (error) {
      if (dispatch.gone) throw error;
      dispatch.log.warn({ reason: (error as Error).message, messages }, `${what} failed; retrying`);
      await sleepUntil(Date.now() + STORE_RETRY_MS);
    }
  }
}

/** Ends the sends of dispatchers that died in a call (`outcome_unknown`) and frees those they only reserved. */
async function endAbandoned({ em, jobs }: Dispatch): Promise<number> {
  const ended = await em().transactional((tx) => writeStatuses(tx, jobs, abandonedMoves(HEARTBEAT_STALE_SECONDS)));
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

/**
 * Hands the sends whose slot has come over, in one transaction: the broadcasts they belong to are locked against a
 * cancel or a pause (which waits for this, or this for it); a paused broadcast's sends are held (holdPausedSends),
 * the others become `sending` or `cancelled` (handOverMoves). Returns the ids to call.
 */
function handOver(dispatch: Dispatch, group: readonly ClaimedSend[]): Promise<Set<string>> {
  const { id, em, jobs, options } = dispatch;
  const broadcasts = [...new Set(group.flatMap((send) => (send.broadcast_id ? [send.broadcast_id] : [])))];
  return untilStored(dispatch, 'handing sends over', group.length, () =>
    em().transactional(async (tx) => {
      const { cancelled, paused } = broadcasts.length
        ? await options.stops().stoppedOf(tx, broadcasts)
        : { cancelled: [], paused: [] };
      const held = group.filter((send) => send.broadcast_id !== null && paused.includes(send.broadcast_id));
      if (held.length > 0)
        await holdPausedSends(
          tx,
          id,
          held.map((send) => send.id),
        );
      const moves = handOverMoves(
        id,
        group.filter((send) => !held.includes(send)).map((send) => send.id),
        cancelled,
      );
      const changes = await writeStatuses(tx, jobs, moves);
      return new Set(changes.filter((change) => change.status === 'sending').map((change) => change.id));
    }),
  );
}

/**
 * A reserved batch: as their slots come, the sends are handed over together (every one whose slot has come, so a
 * busy moment makes one hand-over of several) and called at once; then the answers are recorded in one statement.
 */
async function sendBatch(dispatch: Dispatch, claimed: ClaimedSend[], startMs: number, spacingMs: number) {
  const calls: Promise<SendOutcome>[] = [];
  for (let next = 0; next < claimed.length;) {
    await sleepUntil(startMs + next * spacingMs);
    const come = Math.min(claimed.length, Math.max(next + 1, Math.floor((Date.now() - startMs) / spacingMs) + 1));
    const group = claimed.slice(next, come);
    next = come;
    const handed = await handOver(dispatch, group);
    for (const send of group) if (handed.has(send.id)) calls.push(callProvider(dispatch.options.providers(), send));
  }
  const outcomes = await Promise.all(calls);
  const notMade = outcomes.filter((outcome) => outcome.status === 'queued').length;
  if (notMade > 0)
    dispatch.log.warn({ messages: notMade }, 'sends the provider could not start or throttled; queued again');
  if (outcomes.length === 0) return;
  const { id, em, jobs } = dispatch;
  await untilStored(dispatch, 'recording sends', outcomes.length, () =>
    em().transactional(async (tx) => {
      await writeStatuses(tx, jobs, outcomeMoves(id, outcomes));
      await deferThrottled(tx, outcomes);
    }),
  );
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
      const sending = sendBatch(dispatch, claimed, slots.startMs, slots.spacingMs).finally(() =>
        inFlight.delete(sending),
      );
      inFlight.add(sending);
    }
    // Only once the batch is under way: a refund failing (an outage starting) must not strand the claimed messages.
    await returnSendSlots(em(), slots, batch - claimed.length);
    if (claimed.length === 0) break;
    if (inFlight.size >= BATCHES_IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}

function startDispatcher(root: EntityManager, jobs: JobQueue, log: Logger, options: DispatcherOptions): RunningWorker {
  const dispatch: Dispatch = {
    id: randomUUID(),
    em: () => root.fork(),
    jobs,
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
