import { AppError } from '../../kit/errors.js';
import type { BackgroundWorker, Task } from '../../kit/jobs.js';
import { periodicWorker } from '../../kit/periodic-worker.js';
import { ProviderUnauthorizedError } from '../whatsapp-graph/index.js';
import { requestTemplateSync, syncChannelTemplates, TEMPLATE_SYNC_QUEUE } from './template-sync.service.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import type { WhatsApp } from './whatsapp.js';

/** Retrying cannot help a refusal of the request or of the token; it can an outage (ours or Meta's). */
const worthRetrying = (error: unknown) =>
  !(error instanceof AppError) || (error.status >= 500 && !(error instanceof ProviderUnauthorizedError));

/**
 * One channel's sync. Meta unreachable, failing or rate limiting, or our database away: thrown, so pg-boss retries
 * with backoff. A refusal (token revoked, account gone): logged and done; the next scheduled run tries again. A
 * channel no longer connected has nothing to sync.
 */
export function templateSyncTask(whatsApp: WhatsApp): Task<{ channelId: string }> {
  return {
    queue: TEMPLATE_SYNC_QUEUE,
    concurrency: 2,
    singleton: true,
    async run({ channelId }, { em, logger }) {
      if ((await em.count(WhatsAppConnection, { channel: channelId })) === 0) return;
      try {
        const result = await syncChannelTemplates({ em }, whatsApp, channelId, logger);
        logger.info({ channelId, ...result }, 'WhatsApp templates synced');
      } catch (error) {
        if (worthRetrying(error)) throw error;
        logger.warn({ channelId, reason: (error as Error).message }, 'WhatsApp template sync refused; not retried');
      }
    },
  };
}

/**
 * Every TEMPLATE_SYNC_MINUTES, queues one sync per connected channel: once per period across every instance, on a
 * schedule kept in PostgreSQL, so instances restarted more often than that still sync. A channel's sync is a
 * singleton job, so a request made while one waits is absorbed by it.
 */
function scheduledSync(everyMinutes: number): BackgroundWorker {
  return periodicWorker({
    name: 'whatsapp.template-sync-schedule',
    everyMs: everyMinutes * 60_000,
    waitFirst: true,
    shared: true,
    failure: 'queueing the scheduled WhatsApp template sync failed; retrying on the next run',
    async run({ em, jobs, logger }) {
      const fork = em.fork();
      const connections = await fork.find(WhatsAppConnection, {}, { fields: ['channel'] });
      await fork.transactional(async (tx) => {
        for (const connection of connections) await requestTemplateSync({ em: tx }, jobs, connection.channel.id);
      });
      logger.info({ channels: connections.length }, 'scheduled WhatsApp template sync queued');
    },
  });
}

/** The schedule that syncs every channel (TEMPLATE_SYNC_MINUTES; 0: none). */
export const templateSyncSchedule = (everyMinutes: number): BackgroundWorker[] =>
  everyMinutes > 0 ? [scheduledSync(everyMinutes)] : [];
