import { EVENT_STREAM } from '@switchboard/contract';
import { receiveSandboxMessage } from '@switchboard/server';
import type { TestServer } from './server.js';

/** One SSE message as the wire carries it (`: ping` comments are counted, not kept). */
export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  /** When the test read it (Date.now()). */
  at?: number;
}

export interface RawStream {
  status: number;
  headers: Headers;
  /** The envelope of a refused stream. */
  body?: { success: false; error: string; message: string };
  messages: SseMessage[];
  pings: number;
  /** Resolves with the first `count` event messages (those with an `event:` field), or rejects after `timeoutMs`. */
  events(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

function parseBlock(block: string): SseMessage | 'ping' | undefined {
  if (block.startsWith(':')) return 'ping';
  const message: SseMessage = {};
  for (const line of block.split('\n')) {
    const at = line.indexOf(':');
    const field = line.slice(0, at) as 'id' | 'event' | 'data' | 'retry';
    message[field] = line.slice(at + 1).replace(/^ /, '');
  }
  return Object.keys(message).length ? message : undefined;
}

/**
 * GET events/stream with plain fetch, read block by block (a reader of the wire format the server writes: `\n\n`
 * between messages). Resolves once the reply's headers are in: the server subscribes the stream before it answers,
 * so an event committed after this resolves reaches it.
 */
export function openRawStream(
  baseUrl: string,
  apiKey: string,
  options: { query?: Record<string, string>; lastEventId?: string; headers?: Record<string, string> } = {},
): Promise<RawStream> {
  const query = new URLSearchParams(options.query ?? {}).toString();
  return openSse(`${baseUrl}${EVENT_STREAM.path}${query ? `?${query}` : ''}`, {
    'x-api-key': apiKey,
    ...(options.lastEventId !== undefined && { 'last-event-id': options.lastEventId }),
    ...options.headers,
  });
}

/**
 * Any Server-Sent Events URL (the portal's tail with its session cookie too), redirects not followed: a refusal is
 * its status, with the envelope when the reply is one.
 */
export async function openSse(url: string, headers: Record<string, string>): Promise<RawStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal, redirect: 'manual' });
  const stream: RawStream = {
    status: response.status,
    headers: response.headers,
    messages: [],
    pings: 0,
    events: () => Promise.reject(new Error('the stream was refused')),
    ended: Promise.resolve(),
    close: () => controller.abort(),
  };
  if (!response.ok) {
    stream.body = (await response.json().catch(() => undefined)) as RawStream['body'];
    return stream;
  }
  const waiters = new Set<() => void>();
  let finished = false;
  stream.ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const parsed = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (parsed === 'ping') stream.pings += 1;
          else if (parsed) stream.messages.push({ ...parsed, at: Date.now() });
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // Closed by the test.
    }
    finished = true;
    for (const wake of waiters) wake();
  })();
  stream.events = (count, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const events = stream.messages.filter((message) => message.event !== undefined);
        if (events.length >= count) {
          cleanup();
          resolve(events.slice(0, count));
        } else if (finished) {
          cleanup();
          reject(new Error(`the stream ended after ${events.length} of ${count} events`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${count} events did not arrive within ${timeoutMs} ms (got ${stream.messages.length})`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return stream;
}

let customers = 0;
/** A new customer's message on the channel, recorded through `server` (its own transaction, and its events). */
export const customerWrites = (server: TestServer, channelId: string, text: string) =>
  receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
    channelId,
    from: `1555${process.pid % 1000}${String(++customers).padStart(4, '0')}`.slice(0, 15),
    text,
  });

/** openRawStream and openSse, each stream remembered so that `closeAll` (in afterAll) ends those a failed test left
 * open. */
export function streamTracker() {
  const opened: RawStream[] = [];
  const track = (stream: RawStream) => {
    opened.push(stream);
    return stream;
  };
  return {
    open: async (...args: Parameters<typeof openRawStream>) => track(await openRawStream(...args)),
    openSse: async (...args: Parameters<typeof openSse>) => track(await openSse(...args)),
    closeAll: () => opened.forEach((stream) => stream.close()),
  };
}

/** The JSON body an event message carries. */
export const bodyOf = (message: SseMessage) => JSON.parse(message.data!) as { type: string; data: { text?: string } };
