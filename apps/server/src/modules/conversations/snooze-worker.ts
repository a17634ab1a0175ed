import { provide, serviceKey } from '../../kit/services.js';
import { wakeSnoozed } from './conversation-lifecycle.service.js';

/** How often due snoozes are looked for: a snoozed conversation opens within this (and one round trip) of its time. */
const SNOOZE_CHECK_MS = 1000;

/**
 * Opens snoozed conversations whose `snoozedUntil` has come, on every instance that runs the worker
 * (DELIVERY_WORKER): one indexed query a second (conversations_snoozed_index), rows claimed with SKIP LOCKED, so
 * instances never open the same one twice.
 */
export const snoozeWorkerService = provide({
  key: serviceKey<{ stop(): void }>('conversations.snoozeWorker'),
  start: ({ em, jobs, logger, config }) => {
    if (!config.DELIVERY_WORKER) return { stop: () => undefined };
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      wakeSnoozed(em, jobs)
        .catch((error: unknown) =>
          logger.warn({ reason: (error as Error).message }, 'opening snoozed conversations failed; retrying'),
        )
        .finally(() => (running = false));
    }, SNOOZE_CHECK_MS);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  },
  stop: async (worker) => worker.stop(),
});
