import pg from 'pg';
import type { ListenFor } from '../kit/services.js';
import type { Logger } from '../logger.js';

export interface ListenerEvents {
  notified(payload: string): void;
  /** LISTEN is confirmed on a (new) connection: every later commit's notifications will arrive. */
  listening(): void;
  /** The connection is gone: notifications may be missed until `listening` again. */
  lost(): void;
}

export interface NotificationListenerOptions {
  url: string;
  channel: string;
  logger: Logger;
  /** Wait between connection attempts. */
  retryMs?: number;
  /**
   * A catch-up round trip slower than this counts as a lost connection (a half-open socket never answers); the
   * server passes DB_ACQUIRE_TIMEOUT_MS, how long a request may wait for the database.
   */
  catchUpTimeoutMs?: number;
  /** Who listens, for `application_name` and the outage log lines; the API key cache's by default. */
  purpose?: ListenerPurpose;
}

interface ListenerPurpose {
  application: string;
  /** Logged once when the connection is lost, and once when it is back. */
  lost: string;
  back: string;
}

const CALLER_CACHE_PURPOSE: ListenerPurpose = {
  application: 'switchboard caller cache',
  lost:
    'API key cache off: its change listener cannot reach the database; every request looks its key up until it is ' +
    'back',
  back: 'API key cache on again: its change listener is back',
};

/**
 * Turns a round trip into a catch-up that every caller can rely on: the promise a call gets is settled by a
 * round trip *started after the call*. Calls made while one is in flight share the next one, so at most one is
 * in flight and one queued, however many requests wait.
 */
export function sharedRoundTrips(roundTrip: () => Promise<boolean>): () => Promise<boolean> {
  let running: Promise<boolean> | undefined;
  let queued: Promise<boolean> | undefined;
  const start = () => {
    const trip = roundTrip()
      .catch(() => false)
      .finally(() => {
        running = undefined;
      });
    running = trip;
    return trip;
  };
  return () => {
    if (!running) return start();
    queued ??= running.then(() => {
      queued = undefined;
      return start();
    });
    return queued;
  };
}

/** The promise, or a rejection once `ms` have passed without it settling. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no reply within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

interface Connection {
  client: pg.Client;
  /** Drops this connection (once) and schedules the next attempt. */
  close(reason: string): void;
}

function listenerClient(url: string, application: string) {
  return new pg.Client({
    connectionString: url,
    application_name: application,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    connectionTimeoutMillis: 5000,
  });
}

function catchUpRoundTrips(state: { readonly live: Connection | undefined }, catchUpTimeoutMs: number) {
  return sharedRoundTrips(async () => {
    const connection = state.live;
    if (!connection) return false;
    try {
      await within(connection.client.query(''), catchUpTimeoutMs);
    } catch (error) {
      // Failed or unanswered: this connection cannot be trusted to have delivered everything.
      connection.close((error as Error).message);
      return false;
    }
    return state.live === connection;
  });
}

/**
 * A dedicated connection LISTENing on one channel, reconnecting after any failure, with a catch-up guarantee:
 * PostgreSQL signals listeners when a transaction commits, before the committing client hears "committed", and a
 * listening session sends every pending notification before it answers its next query (postgres.c, before
 * ReadyForQuery). So once an empty query sent after some moment is answered, every notification of a transaction
 * committed before that moment has been handed to `events.notified` (node-postgres emits them in wire order).
 */
export function listenForNotifications(options: NotificationListenerOptions, events: ListenerEvents) {
  const { url, channel, logger, retryMs = 1000, catchUpTimeoutMs = 5000, purpose = CALLER_CACHE_PURPOSE } = options;
  const state = {
    live: undefined as Connection | undefined,
    stopped: false,
    outage: false,
    retry: undefined as NodeJS.Timeout | undefined,
  };

  async function connect() {
    const client = listenerClient(url, purpose.application);
    let closed = false;
    const connection: Connection = {
      client,
      close(reason) {
        if (closed) return;
        closed = true;
        if (state.live === connection) {
          state.live = undefined;
          events.lost();
        }
        client.end().catch(() => undefined);
        if (state.stopped) return;
        if (!state.outage) logger.warn({ channel, reason }, purpose.lost);
        state.outage = true;
        state.retry = setTimeout(() => void connect(), retryMs);
      },
    };
    client.on('error', (error) => connection.close(error.message));
    client.on('end', () => connection.close('connection ended'));
    client.on('notification', (message) => {
      if (message.channel === channel) events.notified(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      return connection.close((error as Error).message);
    }
    if (closed) return;
    if (state.stopped) return void client.end().catch(() => undefined);
    state.live = connection;
    events.listening();
    if (state.outage) logger.info({ channel }, purpose.back);
    state.outage = false;
  }

  const catchUp = catchUpRoundTrips(state, catchUpTimeoutMs);

  void connect();
  return {
    catchUp: () => (state.live ? catchUp() : Promise.resolve(false)),
    async stop() {
      state.stopped = true;
      clearTimeout(state.retry);
      const connection = state.live;
      state.live = undefined;
      await connection?.client.end().catch(() => undefined);
    },
  };
}

/** The ListenFor port modules are handed: a listener per channel on the database at `url`. */
export const listenerOn =
  (url: string, logger: Logger): ListenFor =>
  (channel, events, outage) =>
    listenForNotifications(
      { url, channel, logger, purpose: { application: `switchboard ${channel}`, ...outage } },
      events,
    );
