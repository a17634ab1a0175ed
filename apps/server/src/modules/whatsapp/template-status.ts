import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import type { InboundTemplateStatusEvent } from './inbound.js';

export interface TemplateStatusDeps {
  jobs: JobQueue;
  log: Logger;
}

/**
 * Meta's `message_template_status_update` for one of the channel's templates (approved, rejected, paused, …), called
 * inside the transaction that applies the inbound delivery. Issue #11 wants the channel's templates synced at once;
 * the sync job is built separately (`requestTemplateSync(tx, jobs, channelId)`), and until it is wired here this
 * only logs the event.
 */
export async function onTemplateStatusUpdate(_tx: EntityManager, deps: TemplateStatusDeps, channelId: string, event: InboundTemplateStatusEvent): Promise<void> {
  const { event: outcome, templateName, language, templateId, reason } = event;
  deps.log.info({ channelId, outcome, templateName, language, templateId, reason }, 'whatsapp template status update');
}
