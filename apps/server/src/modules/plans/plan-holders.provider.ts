import { provide } from '../../kit/services.js';
import { PLAN_HOLDERS, type PlanHolders } from '../users/index.js';
import { Subscription } from './subscription.entity.js';

/** users/list's `hasActiveSubscription`: an active subscription to a base plan (not an add-on). */
const planHolders: PlanHolders = {
  async among(em, userIds) {
    const subscribed = await em.find(
      Subscription,
      { user: { $in: [...userIds] }, status: 'active', plan: { itemType: 'plan' } },
      { fields: ['user'] },
    );
    return new Set(subscribed.map((subscription) => subscription.user.id));
  },
};

export const planHoldersService = provide({ key: PLAN_HOLDERS, start: () => planHolders });
