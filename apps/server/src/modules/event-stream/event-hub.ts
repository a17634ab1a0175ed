import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENT_STREAM_MAX_PER_USER } from '@switchboard/contract';
import { AppError } from '../../kit/errors.js';
import { provide, serviceKey, type ListenFor } from '../../kit/services.js';
import type { Logger } from '../../logger.js';
import { WorkspaceEvent } from './workspace-event.entity.js';

/** The PostgreSQL channel the `workspace_events_number` trigger notifies, once per committing transaction. */
const WORKSPACE_EVENTS_CHANNEL = 'workspace_events';
/** Rows read per round trip, live or replaying. */
export const EVENT_PAGE = 500;
/** A missed notification (the LISTEN connection was lost) delays events at most this long. */
const SAFETY_POLL_MS = 5000;

/** A committed event, with its SSE message built once for every stream that shows it. */
export interface HubEvent {
  cursor: bigint;
  platformId: string;
  channelId: string | null;
  type: string;
  /** `id: …\nevent: …\ndata: …\n\n`: data is the JSON body a webhook delivery of the event carries. */
  frame: string;
}

/** A stream as the hub feeds it: each batch of committed events, in cursor order, once. */
type HubListener = (events: readonly HubEvent[]) => void;

export function hubEventOf(
  row: Pick<WorkspaceEvent, 'cursor' | 'platform' | 'channel' | 'type' | 'payload'>,
): HubEvent {
  const cursor = row.cursor!;
  return {
    cursor: BigInt(cursor),
    platformId: row.platform.id,
    channelId: row.channel?.id ?? null,
    type: row.type,
    frame: `id: ${cursor}\nevent: ${row.type}\ndata: ${JSON.stringify(row.payload)}\n\n`,
  };
}

export interface EventHub {
  /**
   * Counts one stream of the user for as long as it is open (the returned release ends it), or throws 429 when the
   * user already holds EVENT_STREAM_MAX_PER_USER on this instance.
   */
  admit(userId: string): () => void;
  /**
   * Feeds `listener` every event committed after the returned `position` (the cursor up to which the hub has read:
   * a stream replays up to there from the database) until `unsubscribe`.
   */
  subscribe(listener: HubListener): Promise<{ position: bigint; unsubscribe(): void }>;
  stop(): Promise<void>;
}

interface HubDeps {
  em: EntityManager;
  logger: Logger;
  listen: ListenFor;
}

/** Per-user stream counts of this instance, behind `EventHub.admit`. */
function createAdmission(): EventHub['admit'] {
  const open = new Map<string, number>();
  return (userId) => {
    const count = open.get(userId) ?? 0;
    if (count >= EVENT_STREAM_MAX_PER_USER)
      throw new AppError(
        429,
        'rate_limited',
        `At most ${EVENT_STREAM_MAX_PER_USER} event streams per API user may be open at once; close one first.`,
        { 'Retry-After': '3' },
      );
    open.set(userId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (open.get(userId) ?? 1) - 1;
      if (left > 0) open.set(userId, left);
      else open.delete(userId);
    };
  };
}

interface HubReader {
  /** `position` is the cursor up to which the listeners have been fed. */
  state: { position: bigint; reading: Promise<void> | undefined; again: boolean };
  read(): Promise<void>;
}

/** The hub's single reader: pages of events after its position, handed to every listener. */
function createReader(em: EntityManager, logger: Logger, listeners: ReadonlySet<HubListener>): HubReader {
  const state: HubReader['state'] = { position: 0n, reading: undefined, again: false };

  async function readOnce(): Promise<number> {
    const rows = await em
      .fork()
      .find(
        WorkspaceEvent,
        { cursor: { $gt: String(state.position) } },
        { orderBy: { cursor: 'asc' }, limit: EVENT_PAGE, fields: ['cursor', 'platform', 'channel', 'type', 'payload'] },
      );
    if (!rows.length) return 0;
    const events = rows.map(hubEventOf);
    state.position = events.at(-1)!.cursor;
    for (const listener of listeners) listener(events);
    return rows.length;
  }

  function read(): Promise<void> {
    if (state.reading) {
      state.again = true;
      return state.reading;
    }
    state.reading = (async () => {
      do {
        state.again = false;
        try {
          while ((await readOnce()) === EVENT_PAGE);
        } catch (error) {
          logger.warn({ err: error }, 'reading workspace events for the live stream failed; retrying on the next one');
        }
      } while (state.again);
    })().finally(() => {
      state.reading = undefined;
    });
    return state.reading;
  }

  return { state, read };
}

/**
 * One per instance: a single LISTEN connection and a single reader for every stream the instance holds. A NOTIFY
 * (from any instance's commit) makes it read the events after its position, in pages, and hand each batch to every
 * stream, which filters it by its key's channels; a read already running absorbs the notifications that arrive
 * meanwhile into one more read. It starts with the first stream, so a server nobody streams from holds no
 * connection.
 */
function createEventHub({ em, logger, listen }: HubDeps): EventHub {
  const listeners = new Set<HubListener>();
  const { state, read } = createReader(em, logger, listeners);
  const lifecycle = {
    started: undefined as Promise<void> | undefined,
    stop: undefined as (() => Promise<void>) | undefined,
  };

  async function start() {
    const listener = listen(
      WORKSPACE_EVENTS_CHANNEL,
      { notified: () => void read(), listening: () => void read(), lost: () => undefined },
      {
        lost:
          'Live event stream: its listener cannot reach the database; events reach streams by polling until it is ' +
          'back',
        back: 'Live event stream: its listener is back',
      },
    );
    const poll = setInterval(() => void read(), SAFETY_POLL_MS);
    poll.unref();
    lifecycle.stop = async () => {
      clearInterval(poll);
      await listener.stop();
    };
    const [newest] = await em
      .fork()
      .find(WorkspaceEvent, { cursor: { $ne: null } }, { orderBy: { cursor: 'desc' }, limit: 1, fields: ['cursor'] });
    state.position = BigInt(newest?.cursor ?? 0);
  }

  return {
    admit: createAdmission(),
    async subscribe(listener) {
      lifecycle.started ??= start().catch((error: unknown) => {
        lifecycle.started = undefined;
        throw error;
      });
      await lifecycle.started;
      // The position moves in the same synchronous step that feeds the listeners, so a listener added now gets
      // exactly the events after it.
      listeners.add(listener);
      return { position: state.position, unsubscribe: () => void listeners.delete(listener) };
    },
    async stop() {
      listeners.clear();
      await lifecycle.stop?.();
    },
  };
}

export const EVENT_HUB = serviceKey<EventHub>('event-stream.hub');

export const eventHubService = provide({
  key: EVENT_HUB,
  start: ({ em, logger, listen }) => createEventHub({ em, logger, listen }),
  stop: (hub) => hub.stop(),
});
