import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../kit/errors.js';
import type { BackgroundWorker, RunningWorker } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import { SendNotMadeError } from './messaging-provider.port.js';
import type { MessagingProviders } from './messaging-providers.js';
import {
  beat,
  channelsWithDueSends,
  forget,
  claimDueSends,
  endAbandonedSends,
  HEARTBEAT_STALE_SECONDS,
  outboxBacklog,
  recordSendOutcomes,
  type ClaimedSend,
  type SendOutcome,
} from './outbox-rows.js';
import { channelPaceKey, returnSendSlots, sleepUntil, takeSendSlots } from './send-pace.js';

export interface DispatcherOptions {
  /** The channel's budget, messages a second (SEND_RATE_PER_CHANNEL). */
  ratePerSecond: number;
  providers: () => MessagingProviders;
}

/** How often the dispatcher looks for channels with due messages (scheduled ones come due by the clock). */
const DISCOVER_EVERY_MS = 200;
const HEARTBEAT_EVERY_MS = 2_000;
/** A claim takes this much of the channel's budget at once: small enough that cancelling stops sends at once. */
const BATCH_SECONDS = 0.2;
const MAX_BATCH = 500;
/** Batches of one channel whose calls may still be running while the next is claimed. */
const BATCHES_IN_FLIGHT = 4;
const RECORD_RETRY_MS = 500;

/** Meta's code in a provider error's text, `(code 131026…)` (whatsapp/graph-errors.ts writes it so). */
const PROVIDER_CODE = /\(code (\d+)/;

/**
 * What one provider call came to; a throw that is not the provider's answer leaves the outcome unknown, unless the
 * provider says nothing went out (SendNotMadeError): then the message is sent later, not lost.
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
          })
        : await provider.sendSession({
            channelId: send.channel_id,
            to: send.to,
            type: send.type as never,
            text: send.media ? undefined : (send.body ?? undefined),
            mediaUrl: send.media?.url,
            caption: send.media?.caption,
            filename: send.media?.filename,
            replyTo: send.reply_to_provider_id ?? undefined,
          });
    return { id: send.id, status: 'accepted', providerMessageId };
  } catch (error) {
    if (error instanceof SendNotMadeError) return { id: send.id, status: 'queued' };
    if (!(error instanceof AppError))
      return { id: send.id, status: 'failed', errorCode: null, errorTitle: null, reason: 'outcome_unknown' };
    const code = PROVIDER_CODE.exec(error.message)?.[1];
    return {
      id: send.id,
      status: 'failed',
      errorCode: code ? Number(code) : null,
      errorTitle: error.message.slice(0, 500),
      reason: null,
    };
  }
}

/**
 * The send pipeline's dispatcher, one per instance with the worker. Each channel with due messages is drained by
 * its own loop (a channel's backlog never holds up another's): take a batch of slots from the channel's budget,
 * claim that many due messages (`sending`, committed), make the calls at their slots, record the answers in one
 * statement. A heartbeat tells other instances it is alive; a dead one's claimed messages end `outcome_unknown`.
 */
export function sendDispatcher(options: DispatcherOptions): BackgroundWorker {
  return {
    name: 'send dispatcher',
    start: ({ em, logger }) => startDispatcher(em, logger.child({ component: 'send-dispatcher' }), options),
  };
}

/** What every part of one dispatcher shares; `stopping` ends its lanes after their current batch. */
interface Dispatch {
  id: string;
  em: () => EntityManager;
  log: Logger;
  options: DispatcherOptions;
  stopping: boolean;
}

function heartbeatOf({ id, em, log }: Dispatch): () => Promise<void> {
  let healthySince: number | undefined;
  return async () => {
    try {
      await beat(em(), id);
      healthySince ??= Date.now();
      // Declaring others dead needs our own view to be trustworthy: after an outage every heartbeat is stale, so
      // wait until live dispatchers have had time to beat again.
      if (Date.now() - healthySince >= 2 * HEARTBEAT_EVERY_MS) {
        const ended = await endAbandonedSends(em());
        if (ended > 0)
          log.warn({ ended }, 'messages of a dispatcher that died mid-send recorded failed (outcome_unknown)');
      }
    } catch (error) {
      healthySince = undefined;
      log.warn({ reason: (error as Error).message }, 'send dispatcher heartbeat failed');
    }
  };
}

/** Records until PostgreSQL takes it (an outage waits here; the heartbeat of a live dispatcher resumes with it). */
async function record({ id, em, log }: Dispatch, outcomes: SendOutcome[]) {
  for (;;) {
    try {
      return await recordSendOutcomes(em(), id, outcomes);
    } catch (error) {
      log.warn({ reason: (error as Error).message, messages: outcomes.length }, 'recording sends failed; retrying');
      await sleepUntil(Date.now() + RECORD_RETRY_MS);
    }
  }
}

async function sendBatch(dispatch: Dispatch, claimed: ClaimedSend[], startMs: number, spacingMs: number) {
  const calls = claimed.map(async (send, index) => {
    await sleepUntil(startMs + index * spacingMs);
    return callProvider(dispatch.options.providers(), send);
  });
  const outcomes = await Promise.all(calls);
  const notMade = outcomes.filter((outcome) => outcome.status === 'queued').length;
  if (notMade > 0) dispatch.log.warn({ messages: notMade }, 'sends the provider could not start; queued again');
  await record(dispatch, outcomes);
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

function startDispatcher(root: EntityManager, log: Logger, options: DispatcherOptions): RunningWorker {
  const dispatch: Dispatch = { id: randomUUID(), em: () => root.fork(), log, options, stopping: false };
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
      // Nothing of ours is left `sending`: a restarted instance need not wait for this heartbeat to go stale.
      if (drained) await forget(em(), id).catch(() => undefined);
    },
  };
}
