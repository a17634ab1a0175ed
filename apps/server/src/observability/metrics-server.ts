import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** GET /metrics on its own port, so the scrape endpoint never shares the public listener (or its rate limits). */
export async function startMetricsServer(port: number, metrics: Metrics, logger: Logger): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found; metrics are at GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (body) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(body),
      (error: unknown) => {
        logger.error({ err: error }, 'collecting metrics failed');
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('collecting metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  logger.info({ port: bound }, 'metrics listening on /metrics');
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
