import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createApp } from './app.js';
import { seedsDemo, type Config } from './config.js';
import type { Database } from './db/orm.js';
import { seedDemoIfEmpty } from './demo.js';
import { startEvents } from './events/worker.js';
import { answerClientErrors } from './http/client-error.js';
import { startIdempotencySweeper } from './http/idempotency.js';
import { createRateLimiters } from './http/rate-limit.js';
import { watchRedis } from './http/redis-watch.js';
import { startServices } from './kit/services.js';
import { Readiness } from './lifecycle/readiness.js';
import { prepareSchema } from './lifecycle/schema.js';
import type { Logger } from './logger.js';
import { createMetrics } from './observability/metrics.js';
import { startMetricsServer } from './observability/metrics-server.js';
import { idempotencyStore } from './modules/index.js';
import { jobFactories, serviceProviders, type SeedResult } from './wiring.js';

export interface RunningServer {
  server: Server;
  port: number;
  /** The metrics listener's port when METRICS_PORT is set. */
  metricsPort?: number;
  /** What the demo seeding created (DEMO, on by default for the embedded database only), or null. */
  demo: SeedResult | null;
  /** Stops accepting requests, drains in-flight ones (up to SHUTDOWN_TIMEOUT_MS), stops the delivery worker, then releases Redis. */
  close(): Promise<void>;
}

/**
 * Everything between an open database and a listening server: migrations, the rate-limit store, the app.
 * main.ts and the end-to-end tests both start the service through here, so tests run what production runs.
 */
export async function startServer(config: Config, database: Database, logger: Logger): Promise<RunningServer> {
  const pendingMigrations = await prepareSchema(config, database.orm, logger);

  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true })
    : undefined;
  if (redis) {
    watchRedis(redis, logger);
    // Unreachable at start is the same outage as later: watchRedis has logged it, the limiter falls back to memory.
    await redis.connect().catch(() => undefined);
  }
  // The email/webhook worker runs in every server process; it must stop before the database pool closes.
  const events = await startEvents(config, database, logger, jobFactories);
  const portal = { publicUrl: config.PUBLIC_URL, sessionSecret: config.SESSION_SECRET, redis };
  const services = startServices(serviceProviders, { em: database.orm.em, logger, config });
  // The checks read module tables: an instance left with pending migrations has nothing to check them against yet.
  if (pendingMigrations === 0) await services.check().catch(async (error: unknown) => {
    await services.stop();
    await events.stop();
    throw error;
  });
  const readiness = new Readiness();
  const metrics = config.METRICS_PORT === undefined ? undefined : createMetrics({ orm: database.orm, queueStats: events.queueStats });
  const app = createApp({
    orm: database.orm,
    logger,
    rateLimiters: createRateLimiters(redis),
    services,
    jobs: events.queue,
    trustProxy: config.TRUST_PROXY,
    portal,
    readiness,
    metrics,
    corsOrigins: config.CORS_ORIGINS,
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.PORT, () => resolve(listening));
    listening.once('error', reject);
  }).catch(async (error: unknown) => {
    await services.stop();
    await events.stop();
    throw error;
  });
  answerClientErrors(server, logger);
  const { port } = server.address() as AddressInfo;
  const sweeper = startIdempotencySweeper(database.orm.em, idempotencyStore, logger);
  logger.info({ port, rateLimitStore: redis ? 'redis' : 'memory' }, 'Switchboard listening');
  const metricsServer = metrics && (await startMetricsServer(config.METRICS_PORT!, metrics, logger));
  // Seeding waits for the schema: an instance that may not migrate leaves an unmigrated database alone.
  const demo = seedsDemo(config) && pendingMigrations === 0 ? await readiness.track('demo data', seedDemoIfEmpty(database.orm.em.fork())) : null;

  return {
    server,
    port,
    metricsPort: metricsServer?.port,
    demo,
    async close() {
      await metricsServer?.close();
      const forced = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(forced);
      sweeper.stop();
      await services.stop();
      await events.stop();
      await redis?.quit().catch(() => undefined);
    },
  };
}
