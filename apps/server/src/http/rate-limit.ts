import { RATE_CLASSES, type RateClass } from '@switchboard/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../kit/errors.js';
import { routeMetadata } from './context.js';

/**
 * rate-limiter-flexible: a maintained fixed-window limiter with memory and Redis stores behind one interface.
 * With Redis, every server instance shares one budget per user and class; if Redis is unreachable the limiter
 * falls back to per-instance memory (insuranceLimiter) rather than failing requests.
 */
export type RateLimiters = Record<RateClass, RateLimiterAbstract>;

export function createRateLimiters(redis?: Redis, points: Partial<Record<RateClass, number>> = {}): RateLimiters {
  const limiter = (rateClass: RateClass): RateLimiterAbstract => {
    const { durationSeconds } = RATE_CLASSES[rateClass];
    const options = { points: points[rateClass] ?? RATE_CLASSES[rateClass].points, duration: durationSeconds, keyPrefix: `sb:rl:${rateClass}` };
    const memory = new RateLimiterMemory(options);
    return redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
  };
  return {
    api_read: limiter('api_read'),
    api_write: limiter('api_write'),
    api_message: limiter('api_message'),
    api_admin_write: limiter('api_admin_write'),
  };
}

function setHeaders(res: Response, limiter: RateLimiterAbstract, result: RateLimiterRes) {
  const { points, duration: durationSeconds } = limiter;
  res.setHeader('RateLimit-Limit', String(points));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
  res.setHeader('RateLimit-Reset', String(Math.max(1, Math.ceil(result.msBeforeNext / 1000))));
  res.setHeader('RateLimit-Policy', `${points};w=${durationSeconds}`);
}

/** Budgets are per API user (all of a user's keys share one) and per class declared on the route in the contract. */
export function rateLimit(limiters: RateLimiters) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const metadata = routeMetadata(req);
    if (!metadata || !req.caller) return next();
    const { rateClass } = metadata;
    try {
      const result = await limiters[rateClass].consume(req.caller.userId);
      setHeaders(res, limiters[rateClass], result);
      next();
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        setHeaders(res, limiters[rateClass], rejection);
        return next(new RateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), rateClass));
      }
      // The store failed and no fallback answered: serve the request rather than lock everyone out.
      req.log.error({ err: rejection }, 'rate limiter unavailable');
      next();
    }
  };
}
