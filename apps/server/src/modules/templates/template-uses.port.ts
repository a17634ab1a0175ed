import type { EntityManager } from '@mikro-orm/postgresql';
import { serviceKey } from '../../kit/services.js';

/**
 * What still needs a template before it may be deleted: a scheduled, sending or paused broadcast, a scheduled
 * message. The broadcasts sit above templates, so their module provides this port.
 */
export interface TemplateUses {
  /** A description of one use of the template (in `language`, or any), or undefined when nothing uses it. */
  useOf(em: EntityManager, channelId: string, name: string, language?: string): Promise<string | undefined>;
}

export const TEMPLATE_USES = serviceKey<TemplateUses>('templates.uses');
