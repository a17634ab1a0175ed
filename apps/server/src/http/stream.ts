import type { Express, NextFunction, Request, Response } from 'express';
import type { RouteDeps } from '../kit/implement.js';
import type { StreamRoute } from '../kit/streams.js';
import { ValidationError } from '../kit/errors.js';
import { authenticate, authenticateKey, presentedKey } from './auth.js';
import { rejectNestedQuery } from './flat-query.js';
import { assertAccess } from './guards.js';
import { rateLimit } from './rate-limit.js';
import type { HttpDeps } from './register.js';
import { zodIssues } from './validation.js';

/**
 * Mounts the modules' streaming endpoints (GET only) behind the chain every API route has: header key only →
 * flat query → the route's access rule → its rate class; then the query is validated by the contract's schema.
 * Failures before the stream starts are the envelope (the error handler); `shutdown` ends open streams, so the
 * server's drain does not wait on them.
 */
export function registerStreamRoutes(
  app: Express,
  streams: readonly StreamRoute[],
  routeDeps: RouteDeps,
  deps: HttpDeps,
  shutdown: AbortSignal,
) {
  for (const { route, serve } of streams) {
    const handle = serve(routeDeps);
    app.get(
      route.path,
      authenticate(deps.em, deps.apiKeys, deps.callers),
      rejectNestedQuery,
      (req: Request, _res: Response, next: NextFunction) => {
        try {
          assertAccess(req.caller!, route.access);
          next();
        } catch (error) {
          next(error);
        }
      },
      rateLimit(deps.rateLimiters, () => route.rateClass),
      async (req: Request, res: Response, next: NextFunction) => {
        const parsed = route.params.safeParse(req.query);
        if (!parsed.success) return next(new ValidationError(zodIssues(parsed.error, 'query')));
        const gone = new AbortController();
        res.once('close', () => gone.abort());
        const key = presentedKey(req);
        try {
          await handle({
            params: parsed.data,
            caller: req.caller!,
            lastEventId: req.get('last-event-id'),
            recheck: () => authenticateKey(deps.em, deps.apiKeys, key, deps.callers),
            res,
            signal: AbortSignal.any([gone.signal, shutdown]),
            log: req.log,
          });
        } catch (error) {
          next(error);
        }
      },
    );
  }
}
