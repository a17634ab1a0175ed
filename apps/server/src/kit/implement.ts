import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppRoute, AppRouter, ServerInferRequest, ServerInferResponseBody } from '@ts-rest/core';
import type { createExpressEndpoints } from '@ts-rest/express';
import type { Request as ExpressRequest } from 'express';
import type { Logger } from '../logger.js';
import type { Caller, CallerContext } from './context.js';
import { ForbiddenError, UnauthorizedError } from './errors.js';
import type { JobQueue } from './jobs.js';
import type { Services } from './services.js';

/** What a module's routers are built with. */
export interface RouteDeps {
  em: EntityManager;
  logger: Logger;
  /** Queues jobs inside a request's transaction. */
  jobs: JobQueue;
  /** The services modules provide (e.g. the messaging providers). */
  services: Services;
}

interface EndpointRoutes {
  post: AppRoute;
  get: AppRoute;
}

export type EndpointParams<E extends EndpointRoutes> =
  ServerInferRequest<E['post']> extends { body: infer B } ? B : never;
/** What a handler reads from the request. ts-rest's request types `query` per route (numbers, booleans), so the
 * full Express type (query as text) would not accept it. */
type Request = Pick<ExpressRequest, 'caller' | 'log' | 'id'>;

export type EndpointResult<E extends EndpointRoutes> = ServerInferResponseBody<E['post'], 200>;

export type EndpointHandler<E extends EndpointRoutes> = (
  params: EndpointParams<E>,
  ctx: CallerContext,
) => Promise<EndpointResult<E>>;

function contextOf(req: Request, em: EntityManager, logger: Logger): CallerContext {
  if (!req.caller) throw new UnauthorizedError('Missing API key. Send it in the X-API-Key header.');
  return { caller: req.caller, em: em.fork(), log: req.log ?? logger, requestId: String(req.id) };
}

/** A platform endpoint's `platformId` must be the key's own platform. */
function assertOwnPlatform(caller: Caller, platformId: string): void {
  if (platformId !== caller.platformId)
    throw new ForbiddenError('This platformId is not the platform of your API key.');
}

/**
 * Implements one contract endpoint for both of its routes: the POST body and the GET query arrive already
 * validated by the same schema, and one handler serves both. Platform endpoints' `platformId` is checked here,
 * once, against the key's platform.
 */
export function implement<E extends EndpointRoutes>(em: EntityManager, logger: Logger, handler: EndpointHandler<E>) {
  const run = async (params: EndpointParams<E>, req: Request) => {
    const ctx = contextOf(req, em, logger);
    const { platformId } = params as { platformId?: unknown };
    if (typeof platformId === 'string') assertOwnPlatform(ctx.caller, platformId);
    return { status: 200 as const, body: await handler(params, ctx) };
  };
  return {
    post: ({ body, req }: { body: EndpointParams<E>; req: Request }) => run(body, req),
    get: ({ query, req }: { query: EndpointParams<E>; req: Request }) => run(query, req),
  };
}

export type RouterImplementation<T extends AppRouter> = Parameters<typeof createExpressEndpoints<T>>[1];

/** A contract slice and how a module implements it; the app registers every module's slices. */
export interface RouteSlice {
  router: AppRouter;
  implement(deps: RouteDeps): unknown;
}

/** Pairs a contract slice with its implementation, checked against each other here, where the types are known. */
export function routes<T extends AppRouter>(
  router: T,
  build: (deps: RouteDeps) => RouterImplementation<T>,
): RouteSlice {
  return { router, implement: build };
}
