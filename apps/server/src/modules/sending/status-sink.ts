import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger.js';
import type { StatusSink, StatusUpdate } from '../messages/index.js';
import { applyStatusUpdates } from './status-reports.js';

/** How long a report waits for others to share its transaction: a burst of reports is stored together. */
const GATHER_MS = 20;
/** Reports stored in one transaction at most. */
const BATCH_MAX = 500;
/** After a failed store (PostgreSQL away), how long until the same reports are tried again, as Meta retries. */
const RETRY_MS = 1_000;

interface Waiting {
  update: StatusUpdate;
  done: () => void;
}

/**
 * Stores the status reports that arrive in the process (the sandbox's): gathered for a moment and applied in one
 * transaction per batch (applyStatusUpdates), one batch at a time, so a broadcast's thousands of reports a second
 * cost a few transactions rather than thousands that exhaust the pool. A batch that fails is tried again until it
 * is stored, as a provider retries its webhooks; each report's promise settles once it is. The WhatsApp Cloud API's
 * reports arrive by webhook and are applied by its inbound job through the same service.
 */
export function statusSink(em: EntityManager, logger: Logger): StatusSink {
  const waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;
  let storing = false;
  let closed = false;

  const storeIn = (ms: number) => {
    if (closed || storing || timer) return;
    timer = setTimeout(() => void store(), ms);
    timer.unref();
  };

  async function store() {
    timer = undefined;
    storing = true;
    const batch = waiting.splice(0, BATCH_MAX);
    let failed = false;
    try {
      const updates = batch.map((item) => item.update);
      const changes = await em.fork().transactional((tx) => applyStatusUpdates({ em: tx }, updates));
      logger.debug({ reports: batch.length, changed: changes.length }, 'message status updates stored');
      for (const item of batch) item.done();
    } catch (error) {
      failed = true;
      if (!closed)
        logger.warn({ err: error, reports: batch.length }, 'storing message status updates failed; retrying');
      waiting.unshift(...batch);
    } finally {
      storing = false;
    }
    if (waiting.length) storeIn(failed ? RETRY_MS : 0);
  }

  const sink = (update: StatusUpdate) =>
    new Promise<void>((done) => {
      if (closed) return done();
      waiting.push({ update, done });
      storeIn(GATHER_MS);
    });
  return Object.assign(sink, {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const item of waiting.splice(0)) item.done();
    },
  });
}
