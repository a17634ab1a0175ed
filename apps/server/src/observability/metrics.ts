import type { MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobBacklog, NamedWorkerHealth, QueueGauge, QueueStats } from '../jobs/worker.js';
import type { CallerCacheStats } from '../http/caller-cache.js';
import { routeMetadata } from '../http/context.js';
import type { DeliveryFailureGauge } from '../kit/module.js';

export interface MetricsSources {
  orm: MikroORM;
  /** The modules' counts of deliveries that failed for good. */
  deliveryFailures: readonly DeliveryFailureGauge[];
  queueStats?: () => Promise<QueueStats[]>;
  jobBacklog?: () => Promise<JobBacklog>;
  /** Each delivery and task queue's backlog and lag. */
  queueGauges?: () => Promise<QueueGauge[]>;
  /** The API-key caller cache's counts, when it is on. */
  callerCache?: () => CallerCacheStats;
  /** The named workers this instance runs (none with JOB_WORKER=false). */
  workers?: () => NamedWorkerHealth[];
}

export interface Metrics {
  registry: Registry;
  /** Express middleware counting and timing every request by route pattern and status. */
  recordRequests(req: Request, res: Response, next: NextFunction): void;
}

/** The route pattern, never the raw path: ids in paths would make one series per resource. */
function routeLabel(req: Request): string {
  const route = req.route as { path?: string } | undefined;
  return route?.path ? `${req.baseUrl}${route.path}` : 'unmatched';
}

/** Requests, their latency and the 429s, by route pattern: recorded as each response finishes. */
function httpMetrics(registry: Registry) {
  const requests = new Counter({
    name: 'switchboard_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'switchboard_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'switchboard_rate_limit_refusals_total',
    help: 'Requests refused with 429 by rate class',
    labelNames: ['rate_class'] as const,
    registers: [registry],
  });
  return { requests, duration, rateLimited };
}

/** The database pool, read at scrape time. */
function poolMetrics(registry: Registry, orm: MetricsSources['orm']) {
  new Gauge({
    name: 'switchboard_db_pool_connections',
    help: 'Database pool connections: in_use, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const pool = (await orm.em.getConnection().getNativeClient()) as Pool;
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}

/** The job queues, their backlog and the deliveries given up on, read at scrape time. */
function jobMetrics(registry: Registry, { orm, deliveryFailures, queueStats, jobBacklog }: MetricsSources) {
  new Gauge({
    name: 'switchboard_job_queue_jobs',
    help: 'Jobs in the delivery queues by state (ready = runnable backlog, deferred = scheduled retries)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      for (const stats of (await queueStats?.()) ?? []) {
        for (const state of ['ready', 'deferred', 'active', 'failed'] as const)
          this.set({ queue: stats.queue, state }, stats[state]);
      }
    },
  });
  new Gauge({
    name: 'switchboard_job_backlog',
    help: 'Jobs counted at scrape time: due = runnable now or running (0: the worker is idle), later = not yet due',
    labelNames: ['when'] as const,
    registers: [registry],
    async collect() {
      const backlog = await jobBacklog?.();
      if (!backlog) return;
      this.set({ when: 'due' }, backlog.due);
      this.set({ when: 'later' }, backlog.later);
    },
  });
  new Gauge({
    name: 'switchboard_delivery_failures',
    help: 'Webhook deliveries and emails that failed for good (retry window over)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const em = orm.em.fork();
      for (const gauge of deliveryFailures) this.set({ kind: gauge.kind }, await gauge.count(em));
    },
  });
}

/** Per queue, pg-boss's and the background workers' alike: what waits, and for how long the oldest due item has. */
function queueMetrics(registry: Registry, queueGauges: NonNullable<MetricsSources['queueGauges']>) {
  // Set by the backlog's collect, one query for both: registered after it, so a scrape reads it once it is set.
  const lag = new Gauge({
    name: 'switchboard_delivery_lag_seconds',
    help: 'Per queue: seconds since its oldest due delivery or job came due (0: nothing waits)',
    labelNames: ['queue'] as const,
    registers: [],
  });
  new Gauge({
    name: 'switchboard_delivery_backlog',
    help: 'Per queue: deliveries or jobs due now or under way (due), and waiting for a scheduled retry (later)',
    labelNames: ['queue', 'when'] as const,
    registers: [registry],
    async collect() {
      for (const gauge of await queueGauges()) {
        this.set({ queue: gauge.queue, when: 'due' }, gauge.due);
        this.set({ queue: gauge.queue, when: 'later' }, gauge.later);
        lag.set({ queue: gauge.queue }, gauge.lagSeconds);
      }
    },
  });
  registry.registerMetric(lag);
}

/** The API-key cache: lookups it answered, and whether it may serve. */
function callerCacheMetrics(registry: Registry, callerCache: NonNullable<MetricsSources['callerCache']>) {
  new Counter({
    name: 'switchboard_api_key_lookups_total',
    help: 'API keys resolved from the caller cache (hit) or the database (miss)',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      const { hits, misses } = callerCache();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
  new Gauge({
    name: 'switchboard_api_key_cache_listening',
    help: '1 while the caller cache hears committed changes (LISTEN) and may serve; 0 while every key is looked up',
    registers: [registry],
    collect() {
      this.set(callerCache().listening ? 1 : 0);
    },
  });
}

/** Counters read from what each periodic worker counted, at scrape time. */
function passCounter(
  registry: Registry,
  workers: () => NamedWorkerHealth[],
  what: 'runs' | 'failures' | 'notDue',
  help: string,
) {
  new Counter({
    name: `switchboard_worker_${what === 'notDue' ? 'not_due' : what}_total`,
    help,
    labelNames: ['worker'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, health } of workers()) if (health) this.inc({ worker: name }, health[what]);
    },
  });
}

/** The named workers: which run here, and each periodic one's passes. */
function workerMetrics(registry: Registry, workers: NonNullable<MetricsSources['workers']>) {
  new Gauge({
    name: 'switchboard_worker_up',
    help: '1 for each named worker (dispatcher, periodic job) this instance runs',
    labelNames: ['worker'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { name } of workers()) this.set({ worker: name }, 1);
    },
  });
  passCounter(registry, workers, 'runs', 'Passes of each periodic worker since this process started it');
  passCounter(registry, workers, 'failures', 'Passes of each periodic worker that failed (logged as a warning)');
  passCounter(
    registry,
    workers,
    'notDue',
    'Ticks of each shared periodic worker that found no pass due (another instance ran it, or not yet its time)',
  );
  new Gauge({
    name: 'switchboard_worker_last_run_seconds',
    help: 'Unix time each periodic worker last finished a pass (absent before its first)',
    labelNames: ['worker'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, health } of workers())
        if (health?.lastRunAt) this.set({ worker: name }, health.lastRunAt.getTime() / 1000);
    },
  });
}

/**
 * prom-client with a registry per process (no global state): Node's default metrics plus the service's own.
 * Gauges that need a query (pool, queue, deliveries) are read when Prometheus scrapes, not on a timer.
 */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { requests, duration, rateLimited } = httpMetrics(registry);
  poolMetrics(registry, sources.orm);
  jobMetrics(registry, sources);
  if (sources.queueGauges) queueMetrics(registry, sources.queueGauges);
  if (sources.callerCache) callerCacheMetrics(registry, sources.callerCache);
  if (sources.workers) workerMetrics(registry, sources.workers);

  return {
    registry,
    recordRequests(req, res, next) {
      const stopTimer = duration.startTimer();
      res.once('finish', () => {
        const labels = { method: req.method, route: routeLabel(req), status: String(res.statusCode) };
        stopTimer(labels);
        requests.inc(labels);
        if (res.statusCode === 429) rateLimited.inc({ rate_class: routeMetadata(req)?.rateClass ?? 'unknown' });
      });
      next();
    },
  };
}
