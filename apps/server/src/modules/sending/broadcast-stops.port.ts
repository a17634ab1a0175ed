import type { EntityManager } from '@mikro-orm/postgresql';
import { serviceKey } from '../../kit/services.js';

/**
 * Which broadcasts were cancelled or paused, asked by the dispatcher as it hands a broadcast's sends over. Each named
 * broadcast is locked (FOR SHARE) until the caller's transaction ends, so a cancel or a pause waits for a hand-over
 * under way and a hand-over after one sees it: no send of a cancelled or paused broadcast starts after its reply.
 * The broadcast rows are the broadcasts module's, which sits above messages, so that module provides this port.
 */
export interface BroadcastStops {
  stoppedOf(tx: EntityManager, broadcastIds: readonly string[]): Promise<{ cancelled: string[]; paused: string[] }>;
}

export const BROADCAST_STOPS = serviceKey<BroadcastStops>('messages.broadcastStops');
