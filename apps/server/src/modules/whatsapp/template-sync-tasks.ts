import { AppError } from '../../kit/errors.js';
import { taskQueue, type NoData, type Task } from '../../kit/jobs.js';
import { ProviderUnauthorizedError } from '../whatsapp-graph/index.js';
import { requestTemplateSync, syncChannelTemplates, TEMPLATE_SYNC_QUEUE } from './template-sync.service.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import type { WhatsApp } from './whatsapp.js';

/** Fires every TEMPLATE_SYNC_MINUTES; each run queues one sync per connected channel. */
const TEMPLATE_SYNC_SCHEDULE_QUEUE = taskQueue<NoData>('whatsapp.template-sync-schedule');

/** Retrying cannot help a refusal of the request or of the token; it can an outage (ours or Meta's). */
const worthRetrying = (error: unknown) =>
  !(error instanceof AppError) || (error.status >= 500 && !(error instanceof ProviderUnauthorizedError));

/**
 * One channel's sync. Meta unreachable, failing or rate limiting, or our database away: thrown, so pg-boss retries
 * with backoff. A refusal (token revoked, account gone): logged and done; the next scheduled run tries again. A
 * channel no longer connected has nothing to sync.
 */
function channelSyncTask(whatsApp: WhatsApp): Task<{ channelId: string }> {
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

function scheduledSyncTask(everyMinutes: number): Task<NoData> {
  return {
    queue: TEMPLATE_SYNC_SCHEDULE_QUEUE,
    concurrency: 1,
    singleton: true,
    everyMinutes,
    async run(_data, { em, jobs, logger }) {
      const connections = await em.find(WhatsAppConnection, {}, { fields: ['channel'] });
      await em.transactional(async (tx) => {
        for (const connection of connections) await requestTemplateSync({ em: tx }, jobs, connection.channel.id);
      });
      logger.info({ channels: connections.length }, 'scheduled WhatsApp template sync queued');
    },
  };
}

/** The template sync jobs: per channel on request, and for every channel on a schedule (0 minutes: none). */
export const templateSyncTasks = (whatsApp: WhatsApp, everyMinutes: number): Task[] => [
  channelSyncTask(whatsApp),
  scheduledSyncTask(everyMinutes),
];
