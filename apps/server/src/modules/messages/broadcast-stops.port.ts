import type { EntityManager } from '@mikro-orm/postgresql';
import { serviceKey } from '../../kit/services.js';

/**
 * Which broadcasts were cancelled, asked by the dispatcher as it hands a broadcast's sends over. Each named broadcast
 * is locked (FOR SHARE) until the caller's transaction ends, so a cancel waits for a hand-over under way and a
 * hand-over after a cancel sees it: no send of a cancelled broadcast starts after the cancel's reply. The broadcast
 * rows are the broadcasts module's, which sits above messages, so that module provides this port.
 */
export interface BroadcastStops {
  stoppedOf(tx: EntityManager, broadcastIds: readonly string[]): Promise<string[]>;
}

export const BROADCAST_STOPS = serviceKey<BroadcastStops>('messages.broadcastStops');
