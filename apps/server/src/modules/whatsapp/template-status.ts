import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import type { InboundTemplateStatusEvent } from './inbound.js';
import { requestTemplateSync } from './template-sync.service.js';

export interface TemplateStatusDeps {
  jobs: JobQueue;
  log: Logger;
}

/**
 * Meta's `message_template_status_update` for one of the channel's templates (approved, rejected, paused, …), inside
 * the transaction that applies the inbound delivery: queues a sync of the channel's templates, so the list follows
 * Meta's review at once instead of at the next scheduled sync. The sync, not this event, decides what is listed:
 * it reads every template as Meta has it now, whatever order review events arrive in.
 */
export async function onTemplateStatusUpdate(
  tx: EntityManager,
  deps: TemplateStatusDeps,
  channelId: string,
  event: InboundTemplateStatusEvent,
): Promise<void> {
  const { event: outcome, templateName, language, templateId, reason } = event;
  deps.log.info(
    { channelId, outcome, templateName, language, templateId, reason },
    'whatsapp template status update: syncing the channel',
  );
  await requestTemplateSync({ em: tx }, deps.jobs, channelId);
}
