import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppRouter } from '@ts-rest/core';
import { createExpressEndpoints } from '@ts-rest/express';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
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

/** A contract path as Express matches it by default: case-insensitive, one trailing slash allowed. */
const pathKey = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase();

/**
 * Where ts-rest mounts routes: one Express router per contract path, found by a Map lookup, so a request runs
 * its own route's chain instead of testing every API route registered before it (contract paths have no
 * parameters). `use` is ts-rest's validation-error handler (each slice adds the same one): every path's router
 * ends with it.
 */
function routesByPath() {
  const routers = new Map<string, Router>();
  let validationErrors: ErrorRequestHandler | undefined;
  const routerOf = (path: string) => {
    let router = routers.get(pathKey(path));
    if (!router) routers.set(pathKey(path), (router = express.Router()));
    return router;
  };
  const mount =
    (method: 'get' | 'post' | 'put' | 'patch' | 'delete') =>
    (path: string, ...handlers: RequestHandler[]) =>
      routerOf(path)[method](path, ...handlers);
  const target = {
    get: mount('get'),
    post: mount('post'),
    put: mount('put'),
    patch: mount('patch'),
    delete: mount('delete'),
    use: (handler: ErrorRequestHandler) => (validationErrors ??= handler),
  };
  const dispatch: RequestHandler = (req, res, next) => {
    const router = routers.get(pathKey(req.path));
    // An Express router answers OPTIONS itself (200 and Allow); the API answers it 405 like any other method.
    if (!router || req.method === 'OPTIONS') return next();
    router(req, res, next);
  };
  const seal = () => {
    if (validationErrors) for (const router of routers.values()) router.use(validationErrors);
  };
  // Library seam: ts-rest mounts on an Express app, and calls only the route methods and `use` this object has.
  return { target: target as unknown as Express, dispatch, seal };
}

export function registerApiRoutes(app: Express, slices: readonly RouteSlice[], routeDeps: RouteDeps, deps: HttpDeps) {
  const paths = routesByPath();
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
      paths.target,
      {
        logInitialization: false,
        // Library seam: plain Express middleware reading only the route metadata fits every slice's typed request.
        globalMiddleware: globalMiddleware as unknown as MountOptions['globalMiddleware'],
        requestValidationErrorHandler: (error, _req, _res, next) => next(validationError(error)),
      },
    );
  }
  paths.seal();
  app.use(paths.dispatch);
}
