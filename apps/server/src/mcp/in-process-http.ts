import http, { type IncomingHttpHeaders } from 'node:http';
import { duplexPair } from 'node:stream';
import type { Express } from 'express';

interface InProcessRequest {
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** The address the request is from, as the app's logs and per-address budgets see it. */
  remoteAddress: string | undefined;
}

interface InProcessReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type InProcessHttp = (request: InProcessRequest) => Promise<InProcessReply>;

function replyOf(response: http.IncomingMessage): Promise<InProcessReply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', reject);
    response.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: handed on as text, and the caller reports a reply without the envelope.
      }
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
    });
  });
}

/**
 * POSTs to the app as a client on the network would, without a port: Node's HTTP client and server speak over an
 * in-memory socket pair, so each request runs the app's whole chain (request id, key, the route's access rule, its
 * rate class, Idempotency-Key, validation, the handler, the error envelope, the request log) and nothing else.
 * light-my-request would be the usual tool, but Express replaces the request's prototype and breaks its fakes.
 */
export function inProcessHttp(app: Express): InProcessHttp {
  const server = http.createServer(app);
  return ({ path, headers, body, remoteAddress }) => {
    const [client, socket] = duplexPair();
    Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
    server.emit('connection', socket);
    const payload = JSON.stringify(body ?? {});
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          createConnection: () => client,
          method: 'POST',
          path,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => replyOf(response).then(resolve, reject),
      );
      request.on('error', reject);
      request.end(payload);
    });
  };
}
