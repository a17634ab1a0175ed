import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { outageLog } from '../outages.js';

/**
 * Logs Redis going away and coming back, once each: ioredis reports every failed reconnect (one every couple of
 * seconds) as an error, which would bury the one fact that matters. While it is away, rate-limiter-flexible's
 * insurance limiter applies per-instance memory budgets (rate-limit.ts).
 */
export function watchRedis(redis: Redis, logger: Logger) {
  const log = outageLog(logger, {
    down: 'redis unavailable: rate limits fall back to per-instance memory budgets',
    up: 'redis available again: rate limits are shared across instances',
  });
  redis.on('error', (error: Error) => log.down({ reason: error.message }));
  redis.on('ready', () => log.up());
}
