import type { MikroORM } from '@mikro-orm/postgresql';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import type { JobQueue } from './events/queue.js';
import type { Logger } from './logger.js';
import { jsonBody, requireJsonBody } from './http/body.js';
import { errorHandler } from './http/error-handler.js';
import { notFound } from './http/not-found.js';
import type { RateLimiters } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { registerApiRoutes } from './http/routes.js';
import type { MessagingProviders } from './modules/messages/provider/providers.js';
import { createPortal, PORTAL_PATH, type PortalOptions } from './portal/portal.router.js';

export interface AppDeps {
  orm: MikroORM;
  logger: Logger;
  rateLimiters: RateLimiters;
  /** Messaging providers by name (server.ts wires the sandbox); their timers stop with the server. */
  messaging: MessagingProviders;
  jobs: JobQueue;
  trustProxy?: boolean;
  /** Developer Portal settings: session secret, public URL, Redis for the sign-in failure budget. */
  portal?: PortalOptions;
}

/** Builds the HTTP app without listening: tests and main.ts both use it. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);
  // Express parses `a[b]=c` into objects by default; API parameters are flat.
  app.set('query parser', 'simple');

  app.use(requestId);
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req) => (req as express.Request).id,
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }) },
    }),
  );

  app.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { status: 'ok' } });
  });
  app.get('/readyz', async (req, res) => {
    try {
      await deps.orm.em.fork().execute('select 1');
      res.json({ success: true, data: { status: 'ready', database: 'up' } });
    } catch (error) {
      req.log.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ success: false, error: 'service_unavailable', message: 'Database unreachable.' });
    }
  });

  // The portal serves HTML forms with its own sessions: it sits before the API's JSON-only body parser and key auth.
  app.use(PORTAL_PATH, createPortal({ orm: deps.orm, logger: deps.logger, ...deps.portal }));

  app.use(requireJsonBody, jsonBody);
  registerApiRoutes(app, { em: deps.orm.em, logger: deps.logger, rateLimiters: deps.rateLimiters, messaging: deps.messaging, jobs: deps.jobs });

  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
