import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../kit/errors.js';
import type { Logger } from '../../logger.js';
import {
  ProviderCallError,
  requireProvider,
  SendNotMadeError,
  writeStatuses,
  type MessagingProviders,
  type OutboundSessionMessage,
  type StatusChange,
} from '../messages/index.js';
import type { BroadcastStops } from './broadcast-stops.port.js';
import {
  deferThrottled,
  handOverMoves,
  holdPausedSends,
  outcomeMoves,
  type ClaimedSend,
  type SendOutcome,
} from './outbox-rows.js';
import { sleepUntil } from './send-pace.js';
import { applyParkedReports } from './status-reports.js';

export interface DispatcherOptions {
  /** The channel's budget, messages a second (SEND_RATE_PER_CHANNEL). */
  ratePerSecond: number;
  providers: () => MessagingProviders;
  /** Which broadcasts were cancelled or paused (the broadcasts module answers). */
  stops: () => BroadcastStops;
}

/**
 * What every part of one dispatcher shares (the worker's, or one API request's hand-over); `stopping` ends its lanes
 * after their current batch, `gone` (the stop's time is up: the pool closes next; an API request never waits) ends
 * the retries of what could not be stored, as a crash would.
 */
export interface Dispatch {
  id: string;
  em: () => EntityManager;
  log: Logger;
  options: DispatcherOptions;
  stopping: boolean;
  gone: boolean;
}

const STORE_RETRY_MS = 500;
/**
 * Calls of one send the provider may throttle: it is queued again after each but the last, which fails it (its
 * error `retryable`), so a number throttled for good does not hold its sends forever.
 */
const MAX_THROTTLED_ATTEMPTS = 5;
/** The wait before a throttled send's next call, doubled at each attempt. */
const THROTTLE_BACKOFF_SECONDS = 1;

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

/** A claimed session message as its provider call takes it: the columns the send recorded. */
function sessionMessageOf(send: ClaimedSend): OutboundSessionMessage {
  const { reaction, interactive, location } = send;
  return {
    channelId: send.channel_id,
    to: send.to,
    type: send.type as OutboundSessionMessage['type'],
    text: send.type === 'text' ? (send.body ?? undefined) : undefined,
    ...(send.preview_url && { previewUrl: true }),
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

/** One provider call: what it came to, and what the provider threw (an API request answers with that error). */
interface Attempt {
  outcome: SendOutcome;
  error?: unknown;
}

/**
 * What a failed call is recorded as: the provider's typed refusal (its code), or an unknown outcome. A throttled
 * call is queued again, except in an API request, which answers with the provider's error as it always has (the
 * caller retries after its Retry-After): a message queued behind that answer would go twice.
 */
function failureOf(send: ClaimedSend, error: unknown, inRequest: boolean): SendOutcome {
  if (error instanceof SendNotMadeError) return { id: send.id, status: 'queued' };
  if (!(error instanceof AppError))
    return { id: send.id, status: 'failed', errorCode: null, errorTitle: null, reason: 'outcome_unknown' };
  const failure = error instanceof ProviderCallError ? error : undefined;
  if (failure?.throttled && !inRequest && send.attempts + 1 < MAX_THROTTLED_ATTEMPTS)
    return { id: send.id, status: 'queued', retryInSeconds: THROTTLE_BACKOFF_SECONDS * 2 ** send.attempts };
  return {
    id: send.id,
    status: 'failed',
    errorCode: failure?.providerCode ?? null,
    errorTitle: error.message.slice(0, 500),
    reason: null,
  };
}

/**
 * What one provider call came to; a throw that is not the provider's answer leaves the outcome unknown, unless the
 * provider says nothing went out (SendNotMadeError): then the message is sent later, not lost. A throttled call
 * (the provider's throughput limit) queues the message again after a growing wait, up to MAX_THROTTLED_ATTEMPTS.
 */
async function callProvider(providers: MessagingProviders, send: ClaimedSend, inRequest: boolean): Promise<Attempt> {
  try {
    const provider = requireProvider(providers, send.provider);
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
    return { outcome: { id: send.id, status: 'accepted', providerMessageId } };
  } catch (error) {
    return { outcome: failureOf(send, error, inRequest), error };
  }
}

/** The ids a hand-over moved to `sending`: the ones to call. */
const handedOver = (changes: readonly StatusChange[]) =>
  new Set(changes.filter((change) => change.status === 'sending').map((change) => change.id));

/**
 * Hands the sends whose slot has come over, in one transaction: the broadcasts they belong to are locked against a
 * cancel or a pause (which waits for this, or this for it); a paused broadcast's sends are held (holdPausedSends),
 * the others become `sending` or `cancelled` (handOverMoves). Returns the ids to call. Sends of no broadcast (an API
 * request's) are neither held nor cancelled: their hand-over is one statement, which announces nothing.
 */
function handOver(dispatch: Dispatch, group: readonly ClaimedSend[]): Promise<Set<string>> {
  const { id, em, options } = dispatch;
  const broadcasts = [...new Set(group.flatMap((send) => (send.broadcast_id ? [send.broadcast_id] : [])))];
  if (broadcasts.length === 0)
    return untilStored(dispatch, 'handing sends over', group.length, async () =>
      handedOver(
        await writeStatuses(
          em(),
          handOverMoves(
            id,
            group.map((send) => send.id),
            [],
          ),
        ),
      ),
    );
  return untilStored(dispatch, 'handing sends over', group.length, () =>
    em().transactional(async (tx) => {
      const { cancelled, paused } = await options.stops().stoppedOf(tx, broadcasts);
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
      return handedOver(await writeStatuses(tx, moves));
    }),
  );
}

/**
 * Records the calls' outcomes in one transaction through the status writer, with the reports the provider sent
 * back before (parked until the provider's ids are recorded here). Returns the changes.
 */
function recordOutcomes(dispatch: Dispatch, outcomes: readonly SendOutcome[]): Promise<StatusChange[]> {
  const { id, em } = dispatch;
  return untilStored(dispatch, 'recording sends', outcomes.length, () =>
    em().transactional(async (tx) => {
      const changes = await writeStatuses(tx, outcomeMoves(id, outcomes));
      await deferThrottled(tx, outcomes);
      const accepted = changes.filter((change) => change.status === 'accepted').map((change) => change.id);
      return [...changes, ...(await applyParkedReports(tx, accepted))];
    }),
  );
}

/** What a batch came to: each call made, and the status changes recorded. */
export interface BatchResult {
  attempts: Attempt[];
  changes: StatusChange[];
}

/**
 * THE hand-over, the dispatcher's and an API request's alike: as the reserved sends' slots come, they are handed
 * over together (every one whose slot has come, so a busy moment makes one hand-over of several) and called at once;
 * then the answers are recorded in one statement. `inRequest`: an API request's send, whose caller is answered
 * with the outcome: accepted, its msgid becomes the provider's id, as the caller always got it.
 */
export async function sendBatch(
  dispatch: Dispatch,
  claimed: readonly ClaimedSend[],
  slots: { startMs: number; spacingMs: number },
  inRequest = false,
): Promise<BatchResult> {
  const calls: Promise<Attempt>[] = [];
  for (let next = 0; next < claimed.length;) {
    await sleepUntil(slots.startMs + next * slots.spacingMs);
    const due = Math.floor((Date.now() - slots.startMs) / slots.spacingMs) + 1;
    const come = Math.min(claimed.length, Math.max(next + 1, due));
    const group = claimed.slice(next, come);
    next = come;
    const handed = await handOver(dispatch, group);
    for (const send of group)
      if (handed.has(send.id)) calls.push(callProvider(dispatch.options.providers(), send, inRequest));
  }
  const attempts = await Promise.all(calls);
  const outcomes = attempts.map(({ outcome }) =>
    outcome.status === 'accepted' && inRequest ? { ...outcome, takesProviderId: true } : outcome,
  );
  const notMade = outcomes.filter((outcome) => outcome.status === 'queued').length;
  if (notMade > 0)
    dispatch.log.warn({ messages: notMade }, 'sends the provider could not start or throttled; queued again');
  if (outcomes.length === 0) return { attempts, changes: [] };
  return { attempts, changes: await recordOutcomes(dispatch, outcomes) };
}
