import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppRouter } from '@ts-rest/core';
import { createExpressEndpoints } from '@ts-rest/express';
import type { Express, RequestHandler } from 'express';
import type { ApiKeyLookup } from '../kit/auth.js';
import type { IdempotencyStore } from '../kit/idempotency.js';
import type { RouteDeps, RouteSlice, RouterImplementation } from '../kit/implement.js';
import type { SecretBox } from '../kit/secrets.js';
import type { Logger } from '../logger.js';
import { authenticate } from './auth.js';
import type { CallerCache } from './caller-cache.js';
import { validationError } from './error-handler.js';
import { rejectNestedQuery } from './flat-query.js';
import { authorize } from './guards.js';
import { idempotency } from './idempotency.js';
import { rateLimit, type RateLimiters } from './rate-limit.js';

/** What the request chain in front of every module's routes needs. */
export interface HttpDeps {
  em: EntityManager;
  logger: Logger;
  rateLimiters: RateLimiters;
  /** How API keys are recognised and resolved (the api-keys module). */
  apiKeys: ApiKeyLookup;
  /** Where Idempotency-Key claims and replies are kept (the idempotency module). */
  idempotencyKeys: IdempotencyStore;
  /** Resolved callers kept between requests (API_KEY_CACHE_TTL_MS); absent: every request looks its key up. */
  callers?: CallerCache;
  /** Seals kept Idempotency-Key replies (SECRETS_KEY); absent: they are kept as they are. */
  secrets?: SecretBox;
}

/**
 * Mounts every module's contract slices. Every API route runs: authenticate (header key only) → flat query →
 * authorize (the route's access rule from the contract) → rate limit (the route's class) → Idempotency-Key
 * (writes) → ts-rest validation → handler.
 */
type MountOptions = NonNullable<Parameters<typeof createExpressEndpoints<AppRouter>>[3]>;

export function registerApiRoutes(app: Express, slices: readonly RouteSlice[], routeDeps: RouteDeps, deps: HttpDeps) {
  const globalMiddleware: RequestHandler[] = [
    authenticate(deps.em, deps.apiKeys, deps.callers),
    rejectNestedQuery,
    authorize,
    rateLimit(deps.rateLimiters),
    idempotency(deps.em, deps.idempotencyKeys, deps.logger, deps.secrets),
  ];
  for (const slice of slices) {
    // Each slice's implementation was checked against its router where both types are known (kit `routes()`).
    createExpressEndpoints<AppRouter>(
      slice.router,
      slice.implement(routeDeps) as RouterImplementation<AppRouter>,
      app,
      {
        logInitialization: false,
        // Plain Express middleware reading only the route metadata: it fits every slice's typed request.
        globalMiddleware: globalMiddleware as unknown as MountOptions['globalMiddleware'],
        requestValidationErrorHandler: (error, _req, _res, next) => next(validationError(error)),
      },
    );
  }
}
