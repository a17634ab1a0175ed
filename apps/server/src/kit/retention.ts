import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import { periodicWorker, type PeriodicWorker } from './periodic-worker.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface Retention<T extends object> {
  /** The worker's name, e.g. `event-stream.retention`. */
  name: string;
  entity: EntityClass<T>;
  days: number;
  /** The rows past retention, given the cutoff (rows created before it). */
  expired(cutoff: Date): FilterQuery<NoInfer<T>>;
  /** The log line when rows were deleted. */
  message: string;
}

/**
 * An hourly worker that deletes the rows past their retention: one indexed statement, once an hour across every
 * instance (a shared schedule), whenever they restart.
 */
export function retentionWorker<T extends object>(retention: Retention<T>): PeriodicWorker {
  return periodicWorker({
    name: retention.name,
    everyMs: HOUR_MS,
    shared: true,
    failure: 'retention sweep failed; retrying in an hour',
    async run({ em, logger }) {
      const cutoff = new Date(Date.now() - retention.days * DAY_MS);
      const deleted = await em.fork().nativeDelete(retention.entity, retention.expired(cutoff));
      if (deleted > 0) logger.info({ deleted, olderThanDays: retention.days }, retention.message);
    },
  });
}
