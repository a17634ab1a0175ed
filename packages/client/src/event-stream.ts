import { EVENT_STREAM, EVENT_STREAM_RESET, EVENT_STREAM_RETRY_MS, type EventStreamParams } from '@switchboard/contract';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { isSwitchboardError, toSwitchboardError } from './errors.js';
// The generated names, not the contract's: the declarations then need nothing of zod.
import type { SwitchboardEvent, WebhookEventType } from './generated/api.js';

/** One event of the stream: the body a webhook delivery of it carries, and its cursor (`id`) to resume after. */
export type StreamedEvent = SwitchboardEvent & { id: string };

export interface EventStreamOptions {
  /** Only this channel’s events; every channel of the key when omitted. */
  channelId?: string | undefined;
  /** Only these event types; all when omitted. */
  types?: readonly WebhookEventType[] | undefined;
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
}

/** `sb.events.stream(...)`: iterate with `for await`; it reconnects by itself and ends on `close()` or the signal. */
export interface EventStream extends AsyncIterable<StreamedEvent> {
  /** Ends the stream (and the iteration) now. */
  close(): void;
  /** The id of the last event received: where the next connection resumes. */
  readonly lastEventId: string | undefined;
}

interface StreamSettings {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
}

function streamUrl(baseUrl: string, options: EventStreamOptions): string {
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

/**
 * A fetch-based SSE client (the key goes in a header, which the browser's EventSource cannot send): one request
 * after another, each resuming with `Last-Event-ID`, parsed with eventsource-parser (the parser the maintained
 * `eventsource` package uses). A refusal (401, 403, 400, a 429 of too many streams) throws SwitchboardError from
 * the iteration; a dropped connection or a 5xx is retried after the server's `retry:` delay.
 */
export function openEventStream(settings: StreamSettings, options: EventStreamOptions = {}): EventStream {
  const closing = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, closing.signal]) : closing.signal;
  const state = { lastEventId: options.lastEventId, retryMs: EVENT_STREAM_RETRY_MS };

  async function* connection(): AsyncGenerator<StreamedEvent, boolean> {
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      'x-api-key': settings.apiKey,
      'user-agent': settings.userAgent,
    };
    if (state.lastEventId !== undefined) headers['last-event-id'] = state.lastEventId;
    const response = await fetch(streamUrl(settings.baseUrl, options), { headers, signal });
    if (!response.ok) {
      const body: unknown = await response.json().catch(() => undefined);
      const headers = Object.fromEntries(response.headers);
      const refusal = toSwitchboardError(response.status, body, headers, EVENT_STREAM.operation);
      // A 5xx is an outage: the stream tries again; anything else would fail the same way again.
      if (response.status < 500) throw refusal;
      return false;
    }
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
        if (message.event === EVENT_STREAM_RESET) options.onReset?.();
        else if (message.id !== undefined) {
          state.lastEventId = message.id;
          yield { ...(JSON.parse(message.data) as SwitchboardEvent), id: message.id };
        }
      }
    }
    return true;
  }

  async function* events(): AsyncGenerator<StreamedEvent> {
    while (!signal.aborted) {
      try {
        yield* connection();
      } catch (error) {
        if (signal.aborted) return;
        if (isSwitchboardError(error)) throw error;
      }
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
