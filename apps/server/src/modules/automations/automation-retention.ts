import type { Task } from '../../kit/jobs.js';
import { AutomationRun } from './automation-run.entity.js';

export const RUN_RETENTION_QUEUE = 'automation.run-retention';
/** How long automations/runs keeps a run (the contract's description says 30 days). */
export const RUN_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

/** Hourly (one run per hour however many instances, as the schedule lives in PostgreSQL): drops runs past retention. */
export const runRetentionTask: Task = {
  queue: RUN_RETENTION_QUEUE,
  concurrency: 1,
  singleton: true,
  everyMinutes: 60,
  async run(_data, { em, logger }) {
    const cutoff = new Date(Date.now() - RUN_RETENTION_DAYS * DAY_MS);
    const deleted = await em.nativeDelete(AutomationRun, { createdAt: { $lt: cutoff } });
    if (deleted > 0) logger.info({ deleted, olderThanDays: RUN_RETENTION_DAYS }, 'old automation runs deleted');
  },
};
