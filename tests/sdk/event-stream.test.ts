import {
  ApiConnectionError,
  AuthenticationError,
  createClient,
  type StreamedEvent,
  type StreamRetry,
} from '@switchboard/client';
import { receiveSandboxMessage } from '@switchboard/server';
import { createServer, connect, type Socket } from 'node:net';
import { afterAll, describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { test } from '../helpers/test.js';

/** A TCP relay in front of the server that can cut every open connection, as a flaky network would. */
async function startRelay(targetPort: number) {
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await new Promise<number>((resolve) =>
    relay.listen(0, '127.0.0.1', () => resolve((relay.address() as { port: number }).port)),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    cut: () => sockets.forEach((socket) => socket.destroy()),
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

const relays: Awaited<ReturnType<typeof startRelay>>[] = [];
afterAll(async () => {
  for (const relay of relays) {
    relay.cut();
    await relay.close();
  }
});

describe('SDK: sb.events.stream', () => {
  test('yields typed events, reconnects by itself (onOpen each time), ends on close()', async ({ server, acme }) => {
    const receive = (text: string) =>
      receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
        channelId: acme.mainChannelId,
        from: '15550007777',
        text,
      });
    await receive('before the stream');
    const [{ cursor }] = (await sql<{ cursor: string }>(
      server.databaseUrl,
      'select max(cursor)::text as cursor from workspace_events',
    )) as [{ cursor: string }];
    const relay = await startRelay(Number(new URL(server.baseUrl).port));
    relays.push(relay);
    const sb = createClient({ baseUrl: relay.url, apiKey: acme.memberKey });
    const calls: string[] = [];
    const stream = sb.events.stream({
      types: ['message.received'],
      lastEventId: cursor,
      onOpen: () => calls.push('open'),
      onDisconnect: () => calls.push('disconnect'),
      onError: (error) => calls.push(`error ${error.code}`),
    });
    const iterator = stream[Symbol.asyncIterator]();

    await receive('one');
    const first = (await iterator.next()).value as StreamedEvent;
    expect(first.type === 'message.received' && first.data.text).toBe('one');
    expect(stream.lastEventId).toBe(first.id);

    relay.cut();
    await receive('two, while disconnected');
    const second = (await iterator.next()).value as StreamedEvent;
    expect(second.type === 'message.received' && second.data.text).toBe('two, while disconnected');
    expect(BigInt(second.id) > BigInt(first.id)).toBe(true);
    // The cut is reported as it happens, before the connection that follows.
    expect(calls).toEqual(['open', 'disconnect', 'open']);

    const pending = iterator.next();
    stream.close();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  test('a refused stream throws the SDK error from the iteration', async ({ server }) => {
    const sb = createClient({ baseUrl: server.baseUrl, apiKey: `sb_live_${'x'.repeat(40)}` });
    const iteration = (async () => {
      for await (const event of sb.events.stream()) return event;
    })();
    await expect(iteration).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('a server it cannot reach: onError per attempt, then ApiConnectionError past maxRetries', async () => {
    const closed = createServer();
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)),
    );
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const sb = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: `sb_live_${'x'.repeat(40)}` });
    const reports: { code: string; retry: StreamRetry }[] = [];
    const iteration = (async () => {
      const stream = sb.events.stream({
        maxRetries: 1,
        onError: (error, retry) => reports.push({ code: error.code, retry }),
      });
      for await (const event of stream) return event;
    })();
    const failure = await iteration.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiConnectionError);
    expect((failure as ApiConnectionError).message).toMatch(/no connection after 2 attempts/);
    expect(reports).toEqual([
      { code: 'network', retry: { attempt: 1, nextRetryMs: 3000 } },
      { code: 'network', retry: { attempt: 2, nextRetryMs: undefined } },
    ]);
  });

  test('after a reset, lastEventId no longer claims the id it could not resume from', async ({ server, acme }) => {
    const sb = createClient({ baseUrl: server.baseUrl, apiKey: acme.memberKey });
    let reset!: () => void;
    const wasReset = new Promise<void>((resolve) => (reset = resolve));
    const stream = sb.events.stream({ lastEventId: 'bogus', onReset: () => reset() });
    expect(stream.lastEventId).toBe('bogus');
    const pending = stream[Symbol.asyncIterator]().next();
    await wasReset;
    expect(stream.lastEventId).toBeUndefined();
    stream.close();
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
