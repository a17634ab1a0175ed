import type { MikroORM } from '@mikro-orm/postgresql';
import express, { type Express } from 'express';
import { jsonBody, requireJsonBody } from './http/body.js';
import type { CallerCache } from './http/caller-cache.js';
import { corsFor } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { healthRoutes } from './http/health.js';
import { createLocalApi } from './http/local-api.js';
import { notFound } from './http/not-found.js';
import { createOutageMonitor } from './http/outage.js';
import type { RateLimiters } from './http/rate-limit.js';
import { registerApiRoutes } from './http/register.js';
import { replyHeaders } from './http/reply-headers.js';
import { requestId } from './http/request-id.js';
import { requestLogging } from './http/request-log.js';
import { registerStreamRoutes } from './http/stream.js';
import type { JobQueue } from './kit/jobs.js';
import type { SecretBox } from './kit/secrets.js';
import type { Services } from './kit/services.js';
import { Readiness } from './lifecycle/readiness.js';
import type { Logger } from './logger.js';
import { inProcessHttp } from './mcp/in-process-http.js';
import { mcpRoutes } from './mcp/mcp.router.js';
import { apiKeyLookup, idempotencyStore } from './modules/index.js';
import type { Metrics } from './observability/metrics.js';
import { createPortal, PORTAL_PATH, type PortalOptions } from './portal/portal.router.js';
import { root } from './portal/root.js';
import { publicRoutes, receivers, routeSlices, streamRoutes } from './wiring.js';

export interface AppDeps {
  orm: MikroORM;
  logger: Logger;
  rateLimiters: RateLimiters;
  /** The services modules provide (e.g. the messaging providers), started and stopped by server.ts. */
  services: Services;
  jobs: JobQueue;
  /** Express's `trust proxy`: false, a hop count, or the proxies' addresses/CIDRs (TRUST_PROXY). */
  trustProxy?: false | number | string[];
  /** Developer Portal settings: session secret, public URL, Redis for the sign-in failure budget. */
  portal?: PortalOptions;
  /** Start-up steps /readyz waits for; request metrics; origins allowed by CORS (none: CORS off). */
  readiness?: Readiness;
  metrics?: Metrics;
  corsOrigins?: string[];
  /** The API-key caller cache (server.ts starts it with its change listener); absent: no caching. */
  callers?: CallerCache;
  /** Seals secrets at rest (kept Idempotency-Key replies); see db/secrets-key.ts. */
  secrets?: SecretBox;
  /**
   * Aborted when the server stops: open streams (events/stream, the portal's tail) end, so the drain does not wait
   * on them.
   */
  shutdown?: AbortSignal;
}

/** Builds the HTTP app without listening: tests and main.ts both use it. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // No automatic ETags: hashing every reply costs CPU on every request (docs/benchmarks.md), and a conditional GET
  // would get a bodiless 304 instead of the envelope. Portal assets set their own.
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy ?? false);
  // Express parses `a[b]=c` into objects by default; API parameters are flat.
  app.set('query parser', 'simple');

  app.use(requestId);
  app.use(replyHeaders);
  if (deps.metrics) app.use(deps.metrics.recordRequests);
  app.use(requestLogging(app, deps.logger));

  app.get('/', root);
  app.use(healthRoutes(deps.orm, deps.readiness ?? new Readiness()));
  if (deps.corsOrigins?.length) app.use('/api', corsFor(deps.corsOrigins));

  const routeDeps = { em: deps.orm.em, logger: deps.logger, jobs: deps.jobs, services: deps.services };
  // The portal serves HTML forms with its own sessions: it sits before the API's JSON-only body parser and key auth.
  // Its pages act through the API's own endpoints (LocalApi), as the signed-in user.
  const api = createLocalApi(routeSlices, routeDeps, deps.rateLimiters);
  const shutdown = deps.shutdown ?? new AbortController().signal;
  const { orm, logger, services } = deps;
  app.use(PORTAL_PATH, createPortal({ orm, logger, services, api, shutdown, ...deps.portal }));

  const outages = createOutageMonitor(deps.logger);
  app.use('/api', outages.recovery);
  for (const receiver of receivers) app.use('/webhooks', receiver(routeDeps));
  for (const routesOf of publicRoutes) app.use(routesOf(routeDeps));
  app.use(requireJsonBody, jsonBody);
  const httpDeps = {
    em: deps.orm.em,
    logger: deps.logger,
    rateLimiters: deps.rateLimiters,
    apiKeys: apiKeyLookup,
    idempotencyKeys: idempotencyStore,
    callers: deps.callers,
    secrets: deps.secrets,
  };
  // MCP: each tool call is an API request through this very app (in-process HTTP), so it meets every rule above.
  app.use(mcpRoutes(httpDeps, inProcessHttp(app)));
  registerApiRoutes(app, routeSlices, routeDeps, httpDeps);
  registerStreamRoutes(app, streamRoutes, routeDeps, httpDeps, shutdown);

  app.use(
    notFound(
      routeSlices.map((slice) => slice.router),
      streamRoutes.map((stream) => ({ path: stream.route.path, method: 'GET' })),
    ),
  );
  app.use(errorHandler(deps.logger, outages));
  return app;
}
