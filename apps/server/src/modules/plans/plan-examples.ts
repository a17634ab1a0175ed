import type { ExampleId } from '../../kit/module.js';
import { Plan } from './plan.entity.js';
import { Subscription } from './subscription.entity.js';

/** addon/manage's userId: a user of the viewer's platform with an active subscription, the viewer first. */
export const subscribedUserExample: ExampleId = {
  demo: 'users.owner',
  async of(em, viewer) {
    if (await em.count(Subscription, { user: viewer.userId, status: 'active' })) return viewer.userId;
    const other = await em.findOne(
      Subscription,
      { status: 'active', user: { platform: viewer.platformId } },
      { fields: ['user'], orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    return other?.user.id ?? viewer.userId;
  },
};

/** addon/manage's addonId: the platform's first active add-on. */
export const addonExample: ExampleId = {
  demo: 'plans.seats',
  of: async (em, viewer) =>
    (
      await em.findOne(
        Plan,
        { platform: viewer.platformId, itemType: 'addon', isActive: true },
        { fields: ['id'], orderBy: { createdAt: 'asc', id: 'asc' } },
      )
    )?.id,
};
