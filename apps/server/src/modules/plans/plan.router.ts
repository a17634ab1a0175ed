import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { assignAddon, listPlans } from './plan.service.js';

export function subscriptionRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.platform.subscription.list>(em, logger, async (_params, ctx) => {
      const plans = await listPlans(ctx, 'plan');
      return { success: true, data: plans, total: plans.length };
    }),
  };
}

export function addonRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.platform.addon.list>(em, logger, async (_params, ctx) => {
      const addons = await listPlans(ctx, 'addon');
      return { success: true, data: addons, total: addons.length };
    }),
    manage: implement<typeof contract.platform.addon.manage>(em, logger, async (params, ctx) => ({
      success: true,
      data: await assignAddon(ctx, params),
      message: 'Addon assigned successfully',
    })),
  };
}
