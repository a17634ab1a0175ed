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
import { ForbiddenError } from '../../kit/errors.js';
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

/**
 * Keeps proxies from timing the stream out and resolves the key again each time: a revoked key's stream ends, a
 * live one's caller goes to `recheck` (its channels may have changed).
 */
function startPing(request: StreamRequest, recheck: (caller: Caller) => void): ReturnType<typeof setInterval> {
  const { res } = request;
  return setInterval(() => {
    res.write(': ping\n\n');
    void request.recheck().then(
      (caller) => {
        if (!caller) return res.end();
        recheck(caller);
      },
      () => res.end(),
    );
  }, EVENT_STREAM_PING_SECONDS * 1000);
}

/**
 * GET events/stream: subscribes to the instance's hub first (buffering what it feeds), replays from the database
 * what a resuming client missed up to the hub's position, then sends the buffer and goes live. Every ping also
 * resolves the key again: a revoked key's stream ends, and a change to its channels applies.
 */
export function serveEventStream(deps: { em: EntityManager; services: Pick<Services, 'get'> }) {
  const hub = deps.services.get(EVENT_HUB);
  return async (request: StreamRequest) => {
    const { res, signal } = request;
    const params = request.params as EventStreamValues;
    let filter = filterFor(request.caller, params);
    const em = deps.em.fork();
    const resume = await resumeAfter(em, request.lastEventId);
    const release = hub.admit(request.caller.userId);
    const state = { live: false, sent: 0n, buffered: [] as HubEvent[] };
    const send = (events: readonly HubEvent[]) => {
      const frames = events.filter((event) => event.cursor > state.sent && shows(filter, event)).map((e) => e.frame);
      state.sent = events.reduce((top, event) => (event.cursor > top ? event.cursor : top), state.sent);
      if (frames.length) res.write(frames.join(''));
      if (res.writableLength > MAX_BUFFERED_BYTES) res.end();
    };
    let subscription: Awaited<ReturnType<typeof hub.subscribe>>;
    try {
      subscription = await hub.subscribe((events) => (state.live ? send(events) : state.buffered.push(...events)));
    } catch (error) {
      release();
      throw error;
    }
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    const ping = startPing(request, (caller) => {
      filter = filterFor(caller, params);
    });
    const end = () => res.end();
    signal.addEventListener('abort', end, { once: true });
    try {
      writeStreamHead(request.res, resume);
      if (typeof resume === 'bigint') {
        state.sent = resume;
        for await (const events of replay(em, filter, resume, subscription.position)) send(events);
      }
      state.sent = state.sent > subscription.position ? state.sent : subscription.position;
      state.live = true;
      send(state.buffered.splice(0));
    } catch (error) {
      request.log.warn({ err: error }, 'replaying events to a stream failed: the client resumes by its last id');
      res.end();
    }
    await closed;
    clearInterval(ping);
    signal.removeEventListener('abort', end);
    subscription.unsubscribe();
    release();
  };
}
