import type { EntityManager } from '@mikro-orm/postgresql';
import {
  EVENT_STREAM_PING_SECONDS,
  EVENT_STREAM_REPLAY_HOURS,
  EVENT_STREAM_RESET,
  EVENT_STREAM_RETRY_MS,
  type EventStreamValues,
} from '@switchboard/contract';
import type { FilterQuery } from '@mikro-orm/core';
import type { Caller } from '../../kit/context.js';
import { AppError, ForbiddenError } from '../../kit/errors.js';
import type { Services } from '../../kit/services.js';
import type { StreamRequest } from '../../kit/streams.js';
import { EVENT_HUB, EVENT_PAGE, hubEventOf, type HubEvent } from './event-hub.js';
import { WorkspaceEvent } from './workspace-event.entity.js';

/** A client this far behind (bytes written but not yet taken by its socket) is cut off; it resumes by its last id. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const HOUR_MS = 3_600_000;

/** Which events one stream shows: its key's channels (or the one asked for), and the types asked for. */
interface StreamFilter {
  platformId: string;
  channelIds: readonly string[];
  /** A platform's own events (no channel: ticket.closed) reach keys with platform access that ask for no channel. */
  platformEvents: boolean;
  types: readonly string[] | undefined;
}

function filterFor(caller: Caller, params: EventStreamValues): StreamFilter {
  if (params.channelId !== undefined && !caller.channelIds.includes(params.channelId))
    throw new ForbiddenError('You are not authorized for this channel.');
  return {
    platformId: caller.platformId,
    channelIds: params.channelId === undefined ? caller.channelIds : [params.channelId],
    platformEvents: caller.platformAccess && params.channelId === undefined,
    types: params.types,
  };
}

function shows(filter: StreamFilter, event: HubEvent): boolean {
  if (event.platformId !== filter.platformId) return false;
  if (filter.types && !filter.types.includes(event.type)) return false;
  return event.channelId === null ? filter.platformEvents : filter.channelIds.includes(event.channelId);
}

function whereVisible(filter: StreamFilter): FilterQuery<WorkspaceEvent> {
  const scope: FilterQuery<WorkspaceEvent>[] = [{ channel: { $in: [...filter.channelIds] } }];
  if (filter.platformEvents) scope.push({ channel: null, platform: filter.platformId });
  return { $or: scope, ...(filter.types && { type: { $in: [...filter.types] } }) };
}

/**
 * Where a resuming client continues: after its `Last-Event-ID` when that event is from the replay window, or
 * `reset` (an unknown, malformed or expired id: the stream says so once and goes on live).
 */
async function resumeAfter(em: EntityManager, lastEventId: string | undefined): Promise<bigint | 'reset' | 'live'> {
  if (lastEventId === undefined) return 'live';
  if (!/^\d{1,18}$/.test(lastEventId.trim())) return 'reset';
  const event = await em.findOne(WorkspaceEvent, { cursor: lastEventId.trim() }, { fields: ['createdAt'] });
  if (!event || event.createdAt.getTime() < Date.now() - EVENT_STREAM_REPLAY_HOURS * HOUR_MS) return 'reset';
  return BigInt(lastEventId.trim());
}

/** The stream's visible events after `after` up to `upTo`, from the database, a page at a time. */
async function* replay(em: EntityManager, filter: StreamFilter, after: bigint, upTo: bigint) {
  let from = after;
  while (from < upTo) {
    const rows = await em.find(
      WorkspaceEvent,
      { $and: [{ cursor: { $gt: String(from), $lte: String(upTo) } }, whereVisible(filter)] },
      { orderBy: { cursor: 'asc' }, limit: EVENT_PAGE, fields: ['cursor', 'platform', 'channel', 'type', 'payload'] },
    );
    if (!rows.length) return;
    const events = rows.map(hubEventOf);
    yield events;
    from = events.at(-1)!.cursor;
    if (rows.length < EVENT_PAGE) return;
  }
}

function writeStreamHead(res: StreamRequest['res'], resume: bigint | 'reset' | 'live') {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx and other proxies would hold the stream back in their buffers.
    'X-Accel-Buffering': 'no',
  });
  res.write(`retry: ${EVENT_STREAM_RETRY_MS}\n\n`);
  if (resume === 'reset') res.write(`event: ${EVENT_STREAM_RESET}\ndata: {}\n\n`);
}

/** Where one open stream writes, and its one ending. */
interface StreamOutlet {
  /** Writes unless the stream has ended: nothing is ever written after the end. */
  write(text: string): void;
  /**
   * Ends the stream once, whatever ends it. With a reason it is logged, once: a refusal (an AppError below 500: the
   * key revoked, the channel or the portal session gone) as the end of access, anything else as a failure.
   */
  end(reason?: unknown): void;
}

function streamOutlet({ res, log }: StreamRequest): StreamOutlet {
  let ended = false;
  const outlet: StreamOutlet = {
    write(text) {
      if (ended || res.writableEnded || res.destroyed) return;
      res.write(text);
      // A client this far behind is cut off; it resumes by its last id.
      if (res.writableLength > MAX_BUFFERED_BYTES) outlet.end();
    },
    end(reason) {
      if (ended) return;
      ended = true;
      if (reason instanceof AppError && reason.status < 500)
        log.info({ code: reason.code, reason: reason.message }, 'event stream ended: its access ended');
      else if (reason !== undefined)
        log.error({ err: reason }, 'event stream failed and was ended; the client resumes by its last id');
      res.end();
    },
  };
  // A write the socket refuses is this stream's failure, never an unhandled 'error' event.
  res.on('error', (error) => outlet.end(error));
  return outlet;
}

/**
 * Keeps proxies from timing the stream out and resolves the caller again each time: a refusal (revoked key, ended
 * portal session, lost channel) or any failure there ends the stream; a live caller goes to `recheck`.
 */
function startPing(
  request: StreamRequest,
  outlet: StreamOutlet,
  recheck: (caller: Caller) => void,
): ReturnType<typeof setInterval> {
  return setInterval(() => {
    outlet.write(': ping\n\n');
    request
      .recheck()
      .then(recheck)
      .catch((reason: unknown) => outlet.end(reason));
  }, EVENT_STREAM_PING_SECONDS * 1000);
}

/** What a stream has sent: `live` once the replay is done (until then the hub's batches are buffered). */
interface StreamState {
  filter: StreamFilter;
  live: boolean;
  sent: bigint;
  buffered: HubEvent[];
}

/** Writes the events of `events` the stream shows and has not sent yet. */
function sendTo(outlet: StreamOutlet, state: StreamState, events: readonly HubEvent[]) {
  const frames = events.filter((event) => event.cursor > state.sent && shows(state.filter, event)).map((e) => e.frame);
  state.sent = events.reduce((top, event) => (event.cursor > top ? event.cursor : top), state.sent);
  if (frames.length) outlet.write(frames.join(''));
}

/**
 * GET events/stream: subscribes to the instance's hub first (buffering what it feeds), replays from the database
 * what a resuming client missed up to the hub's position, then sends the buffer and goes live. Every ping also
 * resolves the caller again: a revoked key's stream ends, and a change to its channels applies. Whatever fails
 * once the stream has started ends this stream alone (StreamOutlet), never the process.
 */
export function serveEventStream(deps: { em: EntityManager; services: Pick<Services, 'get'> }) {
  const hub = deps.services.get(EVENT_HUB);
  return async (request: StreamRequest) => {
    const { res, signal } = request;
    const params = request.params as EventStreamValues;
    const state: StreamState = { filter: filterFor(request.caller, params), live: false, sent: 0n, buffered: [] };
    const em = deps.em.fork();
    const resume = await resumeAfter(em, request.lastEventId);
    const release = hub.admit(request.caller.userId);
    const outlet = streamOutlet(request);
    const fed = (events: readonly HubEvent[]) => {
      try {
        if (state.live) sendTo(outlet, state, events);
        else state.buffered.push(...events);
      } catch (error) {
        outlet.end(error);
      }
    };
    let subscription: Awaited<ReturnType<typeof hub.subscribe>>;
    try {
      subscription = await hub.subscribe(fed);
    } catch (error) {
      release();
      throw error;
    }
    // The signal, not the reply's 'close' event: a client gone during the awaits above has closed it already.
    const gone = new Promise<void>((resolve) => {
      const stop = () => resolve(outlet.end());
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    if (!res.writableEnded) writeStreamHead(res, resume);
    const ping = startPing(request, outlet, (caller) => {
      state.filter = filterFor(caller, params);
    });
    await goLive(em, outlet, state, resume, subscription.position);
    await gone;
    clearInterval(ping);
    subscription.unsubscribe();
    release();
  };
}

/** Replays what a resuming client missed up to the hub's `position`, then sends what the hub fed meanwhile. */
async function goLive(
  em: EntityManager,
  outlet: StreamOutlet,
  state: StreamState,
  resume: bigint | 'reset' | 'live',
  position: bigint,
) {
  try {
    if (typeof resume === 'bigint') {
      state.sent = resume;
      for await (const events of replay(em, state.filter, resume, position)) sendTo(outlet, state, events);
    }
    state.sent = state.sent > position ? state.sent : position;
    state.live = true;
    sendTo(outlet, state, state.buffered.splice(0));
  } catch (error) {
    outlet.end(error);
  }
}
