import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { NoData, Task, TaskQueue } from './jobs.js';

const DAY_MS = 86_400_000;

export interface Retention<T extends object> {
  queue: TaskQueue<NoData>;
  entity: EntityClass<T>;
  days: number;
  /** The rows past retention, given the cutoff (rows created before it). */
  expired(cutoff: Date): FilterQuery<NoInfer<T>>;
  /** The log line when rows were deleted. */
  message: string;
}

/**
 * An hourly task (a schedule in PostgreSQL: one run per hour however many instances) that deletes the rows past
 * their retention.
 */
export function retentionTask<T extends object>(retention: Retention<T>): Task<NoData> {
  return {
    queue: retention.queue,
    concurrency: 1,
    singleton: true,
    everyMinutes: 60,
    async run(_data, { em, logger }) {
      const cutoff = new Date(Date.now() - retention.days * DAY_MS);
      const deleted = await em.nativeDelete(retention.entity, retention.expired(cutoff));
      if (deleted > 0) logger.info({ deleted, olderThanDays: retention.days }, retention.message);
    },
  };
}
