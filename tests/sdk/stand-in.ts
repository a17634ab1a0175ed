import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** ms since the stand-in started, to measure the client's waits. */
  at: number;
}

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang-up' | 'never';

export interface StandIn {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A scripted HTTP server standing in for Switchboard: `script` decides each reply from the request and how
 * many came before, so retry timing and paging can be checked exactly without a rate limiter or database.
 */
export async function startStandIn(script: (request: SeenRequest, index: number) => Reply): Promise<StandIn> {
  const started = performance.now();
  const requests: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
        at: performance.now() - started,
      };
      requests.push(seen);
      const reply = script(seen, requests.length - 1);
      if (reply === 'never') return;
      if (reply === 'hang-up') return void req.socket.destroy();
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status, {
        'content-type': typeof reply.body === 'string' ? 'text/html' : 'application/json',
        'x-request-id': `req-${requests.length}`,
        ...reply.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const ok = (data: unknown, extra: Record<string, unknown> = {}): Reply => ({
  status: 200,
  body: { success: true, data, ...extra },
});

export const failure = (status: number, error: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body: { success: false, error, message: `${error} (scripted)` },
  headers,
});
