import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateStatus } from '@switchboard/contract';
import { Template } from './template.entity.js';

/** A provider's verdict on a template it was sent for review (the sandbox's, Meta's status webhook). */
export interface TemplateReview {
  channelId: string;
  name: string;
  language: string;
  status: TemplateStatus;
  reason?: string | null;
}

/**
 * Stores a review's outcome on the template it names; false when there is none (not stored yet, as when a review
 * overtakes the submission's own transaction, or deleted since).
 */
export async function applyTemplateReview(em: EntityManager, review: TemplateReview): Promise<boolean> {
  const updated = await em.nativeUpdate(
    Template,
    { channel: review.channelId, name: review.name, language: review.language },
    { status: review.status, rejectedReason: review.status === 'rejected' ? (review.reason ?? null) : null },
  );
  return updated > 0;
}
