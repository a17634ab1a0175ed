import type { EntityManager } from '@mikro-orm/postgresql';
import { serviceKey } from '../../kit/services.js';

/**
 * When a contact last wrote on a channel (Meta's timestamp): the 24-hour window for session messages runs from
 * there. The conversation rows keep it, and conversations sit above messages, so that module provides this port.
 */
export interface SessionWindows {
  lastInboundAt(em: EntityManager, channelId: string, contactId: string): Promise<Date | null>;
}

export const SESSION_WINDOWS = serviceKey<SessionWindows>('messages.sessionWindows');
