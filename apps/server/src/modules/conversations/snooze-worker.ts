import { periodicWorker } from '../../kit/periodic-worker.js';
import { wakeSnoozed } from './conversation-lifecycle.service.js';

/**
 * Opens snoozed conversations whose `snoozedUntil` has come, on every instance that runs the job worker: one indexed
 * query a second (conversations_snoozed_index), rows claimed with SKIP LOCKED, so instances never open the same one
 * twice. A snoozed conversation opens within a second (and one round trip) of its time.
 */
export const snoozeWorker = periodicWorker({
  name: 'conversations.snooze',
  everyMs: 1000,
  run: async ({ em }) => {
    await wakeSnoozed(em);
  },
  failure: 'opening snoozed conversations failed; retrying',
});
