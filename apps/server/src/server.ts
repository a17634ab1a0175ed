import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import { createApp } from './app.js';
import { seedsDemo, type Config } from './config.js';
import { listenerOn, listenForNotifications } from './db/notification-listener.js';
import type { Database } from './db/orm.js';
import { seedDemoIfEmpty } from './demo.js';
import { startJobs, type JobBacklog } from './jobs/worker.js';
import { startCallerCache } from './http/caller-cache.js';
import { answerClientErrors } from './http/client-error.js';
import { createRateLimiters } from './http/rate-limit.js';
import { watchRedis } from './http/redis-watch.js';
import type { JobQueue } from './kit/jobs.js';
import { startServices, type Services } from './kit/services.js';
import { Closers } from './lifecycle/closers.js';
import { Readiness } from './lifecycle/readiness.js';
import { prepareSchema } from './lifecycle/schema.js';
import type { Logger } from './logger.js';
import { createMetrics } from './observability/metrics.js';
import { startMetricsServer } from './observability/metrics-server.js';
import { apiKeyLookup, CALLER_CHANGES_CHANNEL } from './modules/index.js';
import { deliveryFailureGauges, jobFactories, serviceProviders, type SeedResult } from './wiring.js';

/** Bounds the API-key caller cache's memory (an entry's size: docs/benchmarks.md, "Memory"). */
const CALLER_CACHE_ENTRIES = 10_000;

export interface RunningServer {
  server: Server;
  port: number;
  /** The metrics listener's port when METRICS_PORT is set. */
  metricsPort?: number;
  /** What the demo seeding created (DEMO, on by default for the embedded database only), or null. */
  demo: SeedResult | null;
  /** The modules' started services (tests load seed files with them, as `pnpm cli seed` does). */
  services: Services;
  /** The worker's queue: what modules queue jobs through (tests queue module jobs with it). */
  jobs: JobQueue;
  /** The jobs due now and later, counted in PostgreSQL (due 0: the worker is idle; tests wait for that). */
  jobBacklog(): Promise<JobBacklog>;
  /**
   * Releases what start-up acquired, newest first: the metrics listener, the HTTP server (draining in-flight
   * requests up to SHUTDOWN_TIMEOUT_MS), the caller cache, the job worker, the
   * modules' services, then Redis.
   */
  close(): Promise<void>;
}

function started(queue: JobQueue | undefined): JobQueue {
  if (!queue) throw new Error('The job queue is not started yet: a service queued a job during start-up.');
  return queue;
}

/** The shared rate-limit store, when REDIS_URL names one; unreachable at start is the same outage as later. */
async function connectRedis(config: Config, logger: Logger, closers: Closers): Promise<Redis | undefined> {
  if (!config.REDIS_URL) return undefined;
  const redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  closers.add(async () => {
    await redis.quit().catch(() => undefined);
  });
  watchRedis(redis, logger);
  // watchRedis has logged an outage; the limiter falls back to memory.
  await redis.connect().catch(() => undefined);
  return redis;
}

/** The modules' services, then the worker (its tasks use them); the services' jobs wait for the worker's queue. */
async function startServicesAndWorker(
  config: Config,
  database: Database,
  logger: Logger,
  closers: Closers,
  pendingMigrations: number,
) {
  // Services start before the worker (its tasks use them) but queue jobs only once requests or reports arrive: they
  // are handed a queue that forwards to the worker's once it has started.
  const worker: { queue?: JobQueue } = {};
  const jobs: JobQueue = {
    enqueue: (...args) => started(worker.queue).enqueue(...args),
    enqueueTask: (...args) => started(worker.queue).enqueueTask(...args),
  };
  const listen = listenerOn(database.url, logger);
  const services = startServices(serviceProviders, {
    em: database.orm.em,
    logger,
    config,
    jobs,
    secrets: database.secrets,
    listen,
  });
  closers.add(() => services.stop());
  // The checks read module tables: an instance left with pending migrations has nothing to check them against yet.
  // They run before the worker, whose tasks rely on what they check (e.g. that stored secrets open).
  if (pendingMigrations === 0) await closers.orClose(() => services.check());
  // The email/webhook worker runs in every server process; it must stop before the database pool closes, and
  // before the services its tasks use (the Graph client).
  const jobsRuntime = await closers.orClose(() => startJobs(config, database, logger, jobFactories, services, listen));
  closers.add(() => jobsRuntime.stop());
  worker.queue = jobsRuntime.queue;
  return { services, jobsRuntime };
}

/** The API-key cache (API_KEY_CACHE_TTL_MS), kept exact by the changes PostgreSQL announces; none when 0. */
function startCallers(config: Config, database: Database, logger: Logger, closers: Closers) {
  if (!config.API_KEY_CACHE_TTL_MS) return undefined;
  const callers = startCallerCache(
    { ttlMs: config.API_KEY_CACHE_TTL_MS, maxEntries: CALLER_CACHE_ENTRIES },
    (changes) =>
      listenForNotifications(
        { url: database.url, channel: CALLER_CHANGES_CHANNEL, logger, catchUpTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS },
        changes,
      ),
    (apiKeyIds) => apiKeyLookup.recordUses(database.orm.em.fork(), apiKeyIds),
  );
  closers.add(() => callers.stop());
  return callers;
}

/** Listens on PORT; closing stops accepting and drains in-flight requests, cut after SHUTDOWN_TIMEOUT_MS. */
async function listen(
  app: Express,
  config: Config,
  logger: Logger,
  closers: Closers,
  shutdown: AbortController,
): Promise<Server> {
  const server = await closers.orClose(
    () =>
      new Promise<Server>((resolve, reject) => {
        const listening = app.listen(config.PORT, () => resolve(listening));
        listening.once('error', reject);
      }),
  );
  // Stops accepting requests and drains in-flight ones (ending open event streams), cutting those still open after
  // SHUTDOWN_TIMEOUT_MS.
  closers.add(async () => {
    shutdown.abort();
    const forced = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(forced);
  });
  answerClientErrors(server, logger);
  return server;
}

/** The demo data (DEMO), once the schema is there: an instance that may not migrate leaves the database alone. */
async function loadDemo(
  config: Config,
  database: Database,
  logger: Logger,
  closers: Closers,
  readiness: Readiness,
  pendingMigrations: number,
) {
  const wantsDemo = seedsDemo(config);
  if (wantsDemo && pendingMigrations > 0) {
    logger.warn(
      'demo data not loaded: migrations are pending; after `pnpm cli migrate`, restart or run `pnpm cli seed:demo`',
    );
  }
  return wantsDemo && pendingMigrations === 0
    ? await closers.orClose(() => readiness.track('demo data', seedDemoIfEmpty(database.orm.em.fork())))
    : null;
}

/**
 * Everything between an open database and a listening server: migrations, the rate-limit store, the app.
 * main.ts and the end-to-end tests both start the service through here, so tests run what production runs.
 */
export async function startServer(config: Config, database: Database, logger: Logger): Promise<RunningServer> {
  const pendingMigrations = await prepareSchema(config, database.orm, logger);

  const closers = new Closers();
  const redis = await connectRedis(config, logger, closers);
  const { services, jobsRuntime } = await startServicesAndWorker(config, database, logger, closers, pendingMigrations);
  const portal = { publicUrl: config.PUBLIC_URL, sessionSecret: config.SESSION_SECRET, redis };
  const readiness = new Readiness();
  const callers = startCallers(config, database, logger, closers);
  const metrics =
    config.METRICS_PORT === undefined
      ? undefined
      : createMetrics({
          orm: database.orm,
          deliveryFailures: deliveryFailureGauges,
          queueStats: jobsRuntime.queueStats,
          jobBacklog: jobsRuntime.backlog,
          queueGauges: jobsRuntime.gauges,
          callerCache: callers?.stats,
          workers: jobsRuntime.workers,
        });
  const shutdown = new AbortController();
  const app = createApp({
    orm: database.orm,
    logger,
    rateLimiters: createRateLimiters(redis, {
      api_read: config.RATE_LIMIT_API_READ,
      api_write: config.RATE_LIMIT_API_WRITE,
      api_admin_write: config.RATE_LIMIT_API_ADMIN_WRITE,
      api_message: config.RATE_LIMIT_API_MESSAGE,
    }),
    services,
    jobs: jobsRuntime.queue,
    trustProxy: config.TRUST_PROXY,
    portal,
    readiness,
    metrics,
    corsOrigins: config.CORS_ORIGINS,
    callers,
    secrets: database.secrets,
    shutdown: shutdown.signal,
  });

  const server = await listen(app, config, logger, closers, shutdown);
  const { port } = server.address() as AddressInfo;
  logger.info({ port, rateLimitStore: redis ? 'redis' : 'memory' }, 'Switchboard listening');
  const metricsServer =
    metrics && (await closers.orClose(() => startMetricsServer(config.METRICS_PORT!, metrics, logger)));
  if (metricsServer) closers.add(() => metricsServer.close());
  const demo = await loadDemo(config, database, logger, closers, readiness, pendingMigrations);

  return {
    server,
    port,
    metricsPort: metricsServer?.port,
    demo,
    services,
    jobs: jobsRuntime.queue,
    jobBacklog: jobsRuntime.backlog,
    close: () => closers.close(),
  };
}
