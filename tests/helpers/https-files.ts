import type { ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';

/** A file a tenant serves: its type and bytes, or an answer written by hand (a status, a stream). */
type ServedFile = { type: string; bytes: Buffer } | ((res: ServerResponse) => void);

interface HttpsFiles {
  /** `https://127.0.0.1:<port>`: the test certificate (global-setup.ts) is trusted for it. */
  url: string;
  /** Paths requested so far, in order. */
  requested: string[];
  close(): Promise<void>;
}

/** A tenant's own https file server (the outside world): serves `files` by path, 404 for anything else. */
export async function startHttpsFiles(files: Record<string, ServedFile>): Promise<HttpsFiles> {
  const requested: string[] = [];
  const server = createServer(inject('localTls'), (req, res) => {
    const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    requested.push(path);
    const file = files[path];
    if (typeof file === 'function') return file(res);
    if (!file) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) }).end(file.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
