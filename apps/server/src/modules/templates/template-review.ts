import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { QualityRating, TemplateCategory, TemplateStatus, WebhookEventOf } from '@switchboard/contract';
import { Channel } from '../channels/index.js';
import { emitEvent } from '../emitter/index.js';
import { Template } from './template.entity.js';
import { templateView } from './template.service.js';

/**
 * What a provider says changed about one of the channel's templates: a review result, a pause, a quality rating, a
 * new category (Meta's template webhooks, the sandbox's review, `pnpm cli sandbox template-status`).
 */
export interface TemplateChange {
  channelId: string;
  name: string;
  language: string;
  status?: TemplateStatus;
  quality?: QualityRating;
  category?: TemplateCategory;
  reason?: string | null;
}

type TemplateChangeOutcome = 'changed' | 'unchanged' | 'not_found';

const TEMPLATE_UPDATED = 'template.updated';
const FIELDS = ['status', 'quality', 'category'] as const;

/**
 * Applies a change to the template it names, in the caller's transaction (the row locked, so changes meet one after
 * the other), and queues `template.updated` with each field that moved. A repeat changes nothing and queues nothing;
 * a template not stored (yet, or any more) is `not_found`.
 */
export async function applyTemplateChange(tx: EntityManager, change: TemplateChange): Promise<TemplateChangeOutcome> {
  const template = await tx.findOne(
    Template,
    { channel: change.channelId, name: change.name, language: change.language },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!template) return 'not_found';
  const changes: Partial<Record<(typeof FIELDS)[number], { previous: string; current: string }>> = {};
  for (const field of FIELDS) {
    const current = change[field];
    if (current !== undefined && current !== template[field]) changes[field] = { previous: template[field], current };
  }
  if (Object.keys(changes).length === 0) return 'unchanged';
  tx.assign(template, {
    ...(change.status ? { status: change.status } : {}),
    ...(change.quality ? { quality: change.quality } : {}),
    ...(change.category ? { category: change.category } : {}),
    ...(changes.status ? { rejectedReason: change.status === 'rejected' ? (change.reason ?? null) : null } : {}),
  });
  await tx.flush();
  const channel = await tx.findOneOrFail(Channel, change.channelId, { fields: ['platform'] });
  const event: WebhookEventOf<typeof TEMPLATE_UPDATED> = {
    type: TEMPLATE_UPDATED,
    timestamp: new Date().toISOString(),
    data: { channelId: change.channelId, template: templateView(template), changes, reason: change.reason ?? null },
  };
  await emitEvent({ em: tx }, channel.platform.id, event);
  return 'changed';
}
