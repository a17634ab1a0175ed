import type { EntityManager } from '@mikro-orm/postgresql';
import { serviceKey } from '../../kit/services.js';

/**
 * The port users/list reads `hasActiveSubscription` through: users sit below plans, so the plans module provides it.
 */
export interface PlanHolders {
  /** Which of these users hold an active base plan. */
  among(em: EntityManager, userIds: readonly string[]): Promise<ReadonlySet<string>>;
}

export const PLAN_HOLDERS = serviceKey<PlanHolders>('users.planHolders');
