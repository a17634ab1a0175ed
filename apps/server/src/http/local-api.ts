import type { EndpointMetadata } from '@switchboard/contract';
import type { AppRoute, ClientInferRequest } from '@ts-rest/core';
import type { z } from 'zod';
import type { Caller } from '../kit/context.js';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError, ValidationError } from '../kit/errors.js';
import type { EndpointResult, RouteDeps, RouteSlice } from '../kit/implement.js';
import type { Logger } from '../logger.js';
import { assertAccess } from './guards.js';
import type { RateLimiters } from './rate-limit.js';
import { zodIssues } from './validation.js';

/** An endpoint's parameters as a client writes them (before its schema's defaults and transforms). */
export type CallParams<E extends EndpointRoutes> = ClientInferRequest<E['post']> extends { body: infer B } ? B : never;

interface EndpointRoutes {
  post: AppRoute;
  get: AppRoute;
}
type Handler = (args: {
  body: unknown;
  req: { caller: Caller; log: Logger; id: string };
}) => Promise<{ body: unknown }>;

/**
 * The API's endpoints called in-process, as a given caller: what the Developer Portal's pages go through, so that
 * a page can only do what the same user's API key could, under the same rules and with the same 403/404 choices.
 * A call runs what an API request runs after its key is resolved: the route's access rule from the contract
 * (guards.ts), its parameter schema (the POST body's), then the very handler the API mounts (the implementation's
 * own checks: `platformId` is the caller's platform, the channel is one of the caller's). Each call spends the
 * caller's budget of the endpoint's rate class, as the API request would (a portal user and their API keys share
 * it); Idempotency-Key belongs to HTTP clients and is not applied. Failures are thrown as the API's typed errors.
 */
export interface LocalApi {
  call<E extends EndpointRoutes>(
    endpoint: E,
    as: { caller: Caller; log: Logger; requestId: string },
    params: CallParams<E>,
  ): Promise<EndpointResult<E>>;
}

const isRoute = (value: unknown): value is AppRoute =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value;

/** Pairs each POST route of a contract slice with the handler its implementation gives it. */
function collect(router: object, implementation: object, into: Map<AppRoute, Handler>) {
  for (const [name, route] of Object.entries(router)) {
    const implemented = (implementation as Record<string, unknown>)[name];
    if (isRoute(route)) {
      if (route.method === 'POST') into.set(route, implemented as Handler);
    } else if (typeof route === 'object' && route !== null && implemented) collect(route, implemented, into);
  }
}

/** Spends one point of the caller's budget: a spent budget is the API's 429; a failing store lets the call through. */
async function spend(limiters: RateLimiters, metadata: EndpointMetadata, userId: string, log: Logger) {
  try {
    await limiters[metadata.rateClass].consume(userId);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes)
      throw new RateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), metadata.rateClass);
    log.error({ err: rejection }, 'rate limiter unavailable');
  }
}

export function createLocalApi(slices: readonly RouteSlice[], deps: RouteDeps, limiters: RateLimiters): LocalApi {
  const handlers = new Map<AppRoute, Handler>();
  for (const slice of slices) collect(slice.router, slice.implement(deps) as object, handlers);
  return {
    async call(endpoint, { caller, log, requestId }, params) {
      const handler = handlers.get(endpoint.post);
      if (!handler) throw new Error(`No module implements ${endpoint.post.path}`);
      const metadata = endpoint.post.metadata as EndpointMetadata;
      assertAccess(caller, metadata.access);
      await spend(limiters, metadata, caller.userId, log);
      const parsed = (endpoint.post as { body: z.ZodTypeAny }).body.safeParse(params);
      if (!parsed.success) throw new ValidationError(zodIssues(parsed.error, 'body'));
      const { body } = await handler({ body: parsed.data, req: { caller, log, id: requestId } });
      return body as EndpointResult<typeof endpoint>;
    },
  };
}
