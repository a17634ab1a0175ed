import { RateLimiterMemory } from 'rate-limiter-flexible';
import { RateLimitedError } from './errors.js';

/**
 * How many failed attempts (a missing or wrong API key, a webhook with a bad signature) one source address may
 * make per window before it is refused outright with 429, without any work on its behalf (no key lookup, no
 * secret opened). Only failures count: a client whose requests succeed is never limited by this.
 *
 * rate-limiter-flexible's memory store, per instance on purpose: this bounds the work each instance does for
 * unauthenticated traffic, and a Redis round trip per refused request would be work too. N instances behind a
 * balancer allow N times the budget, which is still a bound.
 */
export interface FailureBudget {
  /** Throws 429 (`rate_limited`, Retry-After) when the address has no failures left in this window. */
  check(address: string): Promise<void>;
  /** Counts a failure of the address. */
  failed(address: string): Promise<void>;
}

export function failureBudget(what: string, points: number, durationSeconds: number): FailureBudget {
  const limiter = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix: `sb:failures:${what}` });
  return {
    async check(address) {
      const spent = await limiter.get(address);
      if (spent && spent.consumedPoints >= points)
        throw new RateLimitedError(Math.max(1, Math.ceil(spent.msBeforeNext / 1000)), what);
    },
    async failed(address) {
      await limiter.penalty(address, 1);
    },
  };
}
