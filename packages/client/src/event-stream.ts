import { EVENT_STREAM, EVENT_STREAM_RESET, EVENT_STREAM_RETRY_MS, type EventStreamParams } from '@switchboard/contract';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  ApiConnectionError,
  connectionError,
  isSwitchboardError,
  toSwitchboardError,
  type SwitchboardError,
} from './errors.js';
// The generated names, not the contract's: the declarations then need nothing of zod.
import type { SwitchboardEvent, WebhookEventType } from './generated/api.js';

/**
 * One event of the stream: the body a webhook delivery of it carries, and its cursor (`id`) to resume after.
 * `StreamedEvent<'conversation.updated'>` is that type's alone.
 */
export type StreamedEvent<Type extends WebhookEventType = WebhookEventType> = Extract<
  SwitchboardEvent,
  { type: Type }
> & { id: string };

/** Where the stream stands after a failed connection: how many failed in a row, and the wait before the next. */
export interface StreamRetry {
  /** 1 for the first failure since the stream was last open (or started). */
  attempt: number;
  /** Milliseconds until it tries again (the server’s `retry:`); undefined when `maxRetries` ends it instead. */
  nextRetryMs: number | undefined;
}

export interface EventStreamOptions<Type extends WebhookEventType = WebhookEventType> {
  /** Only this channel’s events; every channel of the key when omitted. */
  channelId?: string | undefined;
  /** Only these event types; all when omitted. The iteration's events are typed as these alone. */
  types?: readonly Type[] | undefined;
  /** Resume after this event (a `StreamedEvent.id` you handled): the server replays what came after it. */
  lastEventId?: string | undefined;
  /** Aborting it ends the iteration, like `close()`. */
  signal?: AbortSignal | undefined;
  /**
   * Called when the server says `lastEventId` is older than its replay window (24 h): events in between are lost,
   * so reload what you show from the API; the stream goes on live.
   */
  onReset?: (() => void) | undefined;
  /**
   * Called each time a connection is accepted (the first, and each after a reconnect), like EventSource's `open`:
   * from then on every event reaches the iteration (a UI can show itself live).
   */
  onOpen?: (() => void) | undefined;
  /**
   * Called when a connection that was open ends (the network dropped, the server restarted): the stream is not live
   * until the next `onOpen`. Not called for `close()` or the signal.
   */
  onDisconnect?: (() => void) | undefined;
  /**
   * Called for each connection that failed (refused, unreachable, a 5xx) with why (an ApiConnectionError, or the
   * server's SwitchboardError) and what comes next; a refusal that ends the stream (401, 403, 400, 429) is thrown
   * instead.
   */
  onError?: ((error: SwitchboardError, retry: StreamRetry) => void) | undefined;
  /**
   * How many failed connections in a row it tries again after (default: no limit); past it, the iteration ends by
   * throwing ApiConnectionError (its `cause`: the last failure). A connection that opens starts the count again.
   */
  maxRetries?: number | undefined;
}

/** `sb.events.stream(...)`: iterate with `for await`; it reconnects by itself and ends on `close()` or the signal. */
export interface EventStream<Type extends WebhookEventType = WebhookEventType> extends AsyncIterable<
  StreamedEvent<Type>
> {
  /** Ends the stream (and the iteration) now. */
  close(): void;
  /**
   * Where the next connection resumes: the id of the last event received, or the `lastEventId` given until one
   * is; undefined after a reset (that id was too old to resume from, so the stream went on live).
   */
  readonly lastEventId: string | undefined;
}

interface StreamSettings {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
}

function streamUrl(baseUrl: string, options: EventStreamOptions<WebhookEventType>): string {
  const query: EventStreamParams = {
    ...(options.channelId && { channelId: options.channelId }),
    ...(options.types?.length && { types: options.types.join(',') }),
  };
  const search = new URLSearchParams(query as Record<string, string>).toString();
  return `${baseUrl.replace(/\/+$/, '')}${EVENT_STREAM.path}${search ? `?${search}` : ''}`;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Where a stream stands between connections. */
interface StreamState {
  lastEventId: string | undefined;
  retryMs: number;
  /** Failed connections in a row. */
  failures: number;
  /** Whether the current connection was accepted (its end is then a disconnect, not a failure). */
  open: boolean;
}

function streamHeaders(settings: StreamSettings, lastEventId: string | undefined): Record<string, string> {
  return {
    accept: 'text/event-stream',
    'x-api-key': settings.apiKey,
    'user-agent': settings.userAgent,
    ...(lastEventId !== undefined && { 'last-event-id': lastEventId }),
  };
}

/** One connection accepted, or why not: the SDK's error for a refusal or a 5xx, a connection error for no reply. */
async function connect(
  settings: StreamSettings,
  options: EventStreamOptions<WebhookEventType>,
  lastEventId: string | undefined,
  signal: AbortSignal,
): Promise<Response> {
  const headers = streamHeaders(settings, lastEventId);
  const response = await fetch(streamUrl(settings.baseUrl, options), { headers, signal }).catch((error: unknown) => {
    throw connectionError((error as { cause?: unknown }).cause ?? error, EVENT_STREAM.operation);
  });
  if (response.ok) return response;
  const body: unknown = await response.json().catch(() => undefined);
  throw toSwitchboardError(response.status, body, Object.fromEntries(response.headers), EVENT_STREAM.operation);
}

/** What follows a failed connection: thrown (a refusal, or past maxRetries), or reported to be waited out. */
function afterFailure(state: StreamState, options: EventStreamOptions<WebhookEventType>, error: unknown): void {
  // A 5xx is an outage and a dropped connection a network's: the stream tries again; a refusal would fail again.
  const failure = isSwitchboardError(error) ? error : connectionError(error, EVENT_STREAM.operation);
  if (failure.status > 0 && failure.status < 500) throw failure;
  state.failures += 1;
  const exhausted = options.maxRetries !== undefined && state.failures > options.maxRetries;
  options.onError?.(failure, { attempt: state.failures, nextRetryMs: exhausted ? undefined : state.retryMs });
  if (exhausted) throw gaveUp(failure, state.failures);
}

/**
 * A fetch-based SSE client (the key goes in a header, which the browser's EventSource cannot send): one request
 * after another, each resuming with `Last-Event-ID`, parsed with eventsource-parser (the parser the maintained
 * `eventsource` package uses). A refusal (401, 403, 400, a 429 of too many streams) throws SwitchboardError from
 * the iteration; a dropped connection or a 5xx is retried after the server's `retry:` delay.
 */
export function openEventStream<Type extends WebhookEventType>(
  settings: StreamSettings,
  options: EventStreamOptions<Type> = {},
): EventStream<Type> {
  const closing = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, closing.signal]) : closing.signal;
  const state: StreamState = {
    lastEventId: options.lastEventId,
    retryMs: EVENT_STREAM_RETRY_MS,
    failures: 0,
    open: false,
  };

  /** One connection's events; throws why it failed (a refusal, a 5xx, no connection), returns when an open one ends. */
  async function* connection(): AsyncGenerator<StreamedEvent<Type>, void> {
    const response = await connect(settings, options, state.lastEventId, signal);
    state.failures = 0;
    state.open = true;
    options.onOpen?.();
    const messages: EventSourceMessage[] = [];
    const parser = createParser({
      onEvent: (message) => messages.push(message),
      onRetry: (ms) => (state.retryMs = ms),
    });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      for (const message of messages.splice(0)) {
        if (message.event === EVENT_STREAM_RESET) {
          state.lastEventId = undefined;
          options.onReset?.();
        } else if (message.id !== undefined) {
          state.lastEventId = message.id;
          yield { ...(JSON.parse(message.data) as SwitchboardEvent), id: message.id } as StreamedEvent<Type>;
        }
      }
    }
  }

  async function* events(): AsyncGenerator<StreamedEvent<Type>> {
    while (!signal.aborted) {
      state.open = false;
      try {
        yield* connection();
      } catch (error) {
        if (signal.aborted) return;
        // An open connection that ends is a disconnect, reported once; one that never opened is a failure.
        if (!state.open) afterFailure(state, options, error);
      }
      if (signal.aborted) return;
      if (state.open) options.onDisconnect?.();
      await pause(state.retryMs, signal);
    }
  }

  return {
    [Symbol.asyncIterator]: () => events(),
    close: () => closing.abort(),
    get lastEventId() {
      return state.lastEventId;
    },
  };
}

/** The error a stream ends with past `maxRetries`: a connection error, its cause the last failure. */
function gaveUp(last: SwitchboardError, attempts: number): ApiConnectionError {
  return new ApiConnectionError({
    status: 0,
    code: 'network',
    message: `events/stream: no connection after ${attempts} attempts (${last.message})`,
    operation: EVENT_STREAM.operation,
    cause: last,
  });
}
