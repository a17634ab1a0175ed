import type { EntityManager } from '@mikro-orm/postgresql';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from '@switchboard/contract';
import type { JobQueue } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import { pauseTemplateBroadcasts } from '../broadcasts/index.js';
import { applyTemplateChange, type TemplateChange } from '../templates/index.js';
import { requestPhoneQuality, requestTemplateSync } from '../whatsapp/index.js';
import type { InboundAccountEvent } from './inbound.js';
import { qualityOf, templateStatusOf } from '../whatsapp-graph/index.js';

export interface TemplateStatusDeps {
  jobs: JobQueue;
  log: Logger;
}

const categoryOf = (category: string): TemplateCategory | undefined =>
  (TEMPLATE_CATEGORIES as readonly string[]).includes(category.toUpperCase())
    ? (category.toUpperCase() as TemplateCategory)
    : undefined;

/** What a template webhook changes, or undefined when we cannot read it (a status or category Meta added later). */
function templateChangeOf(channelId: string, event: InboundAccountEvent): TemplateChange | undefined {
  if (event.kind === 'phone_quality') return undefined;
  const named = { channelId, name: event.templateName, language: event.language };
  if (event.kind === 'template_quality') return { ...named, quality: qualityOf(event.quality) };
  if (event.kind === 'template_category') {
    const category = categoryOf(event.category);
    return category && { ...named, category };
  }
  const status = templateStatusOf(event.event);
  return status && { ...named, status, reason: event.reason ?? null };
}

/**
 * Meta's account webhooks for the channel, inside the transaction that applies the webhook receipt. A template's
 * status, quality or category is applied at once (template.updated), and a template paused or disabled pauses its
 * broadcasts (pauseTemplateBroadcasts); one we do not have, or a change we cannot read, queues a sync of the
 * channel's templates, which reads every template as Meta has it now, whatever order events arrive in. A number's
 * quality update queues the read of its rating (requestPhoneQuality).
 */
export async function onAccountEvent(
  tx: EntityManager,
  deps: TemplateStatusDeps,
  channelId: string,
  event: InboundAccountEvent,
): Promise<void> {
  deps.log.info({ channelId, ...event }, 'whatsapp account update');
  if (event.kind === 'phone_quality') {
    await requestPhoneQuality(tx, deps.jobs, channelId, event.messagingLimit);
    return;
  }
  const change = templateChangeOf(channelId, event);
  const outcome = change ? await applyTemplateChange(tx, change) : 'not_found';
  if (outcome === 'not_found') await requestTemplateSync({ em: tx }, deps.jobs, channelId);
  else if (outcome === 'changed') await pauseTemplateBroadcasts(tx, change!);
}
