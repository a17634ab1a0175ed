import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { migrate, type Database } from './db/orm.js';
import { startEvents } from './events/worker.js';
import { createRateLimiters } from './http/rate-limit.js';
import type { Logger } from './logger.js';
import { createMessagingProviders } from './modules/messages/provider/providers.js';

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting requests, drains in-flight ones (up to SHUTDOWN_TIMEOUT_MS), stops the delivery worker, then releases Redis. */
  close(): Promise<void>;
}

/**
 * Everything between an open database and a listening server: migrations, the rate-limit store, the app.
 * main.ts and the end-to-end tests both start the service through here, so tests run what production runs.
 */
export async function startServer(config: Config, database: Database, logger: Logger): Promise<RunningServer> {
  const applied = await migrate(database.orm);
  if (applied.length) logger.info({ applied }, 'migrations applied');

  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true })
    : undefined;
  if (redis) {
    redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
    await redis.connect().catch((error) => logger.warn({ err: error }, 'redis unreachable; rate limits fall back to memory'));
  }
  // The email/webhook worker runs in every server process; it must stop before the database pool closes.
  const events = await startEvents(config, database, logger);
  const portal = { publicUrl: config.PUBLIC_URL, sessionSecret: config.SESSION_SECRET, redis };
  const messaging = createMessagingProviders(database.orm.em, logger, {
    sentAfterMs: config.SANDBOX_SENT_AFTER_MS,
    deliveredAfterMs: config.SANDBOX_DELIVERED_AFTER_MS,
  });
  const app = createApp({ orm: database.orm, logger, rateLimiters: createRateLimiters(redis), messaging, jobs: events.queue, trustProxy: config.TRUST_PROXY, portal });

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.PORT, () => resolve(listening));
    listening.once('error', reject);
  }).catch(async (error: unknown) => {
    await events.stop();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port, rateLimitStore: redis ? 'redis' : 'memory' }, 'Switchboard listening');

  return {
    server,
    port,
    async close() {
      const forced = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(forced);
      await messaging.close();
      await events.stop();
      await redis?.quit().catch(() => undefined);
    },
  };
}
