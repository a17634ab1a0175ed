import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppRouter } from '@ts-rest/core';
import { createExpressEndpoints } from '@ts-rest/express';
import type { Express } from 'express';
import type { JobQueue } from '../events/queue.js';
import type { Logger } from '../logger.js';
import type { MessagingProviders } from '../modules/messages/provider/providers.js';
import { authenticate } from './auth.js';
import { validationError } from './error-handler.js';
import { authorize } from './guards.js';
import { rateLimit, type RateLimiters } from './rate-limit.js';

export interface RouteDeps {
  em: EntityManager;
  logger: Logger;
  rateLimiters: RateLimiters;
  /** Messaging providers by name; templates/send hands messages to the channel's one. */
  messaging: MessagingProviders;
  /** Queues email/webhook jobs inside a request's transaction (events/). */
  jobs: JobQueue;
}

/**
 * Mounts one slice of the contract. Every API route runs: authenticate (header key only) → authorize (the
 * route's access rule from the contract) → rate limit (the route's class) → ts-rest validation → handler.
 */
export function registerEndpoints<T extends AppRouter>(
  app: Express,
  router: T,
  implementation: Parameters<typeof createExpressEndpoints<T>>[1],
  deps: RouteDeps,
) {
  createExpressEndpoints(router, implementation, app, {
    logInitialization: false,
    globalMiddleware: [authenticate(deps.em), authorize, rateLimit(deps.rateLimiters, deps.logger)],
    requestValidationErrorHandler: (error, _req, _res, next) => next(validationError(error)),
  });
}
