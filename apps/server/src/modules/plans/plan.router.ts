import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { assignAddon, listPlans } from './plan.service.js';

export function subscriptionRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.platform.subscription.list>(em, logger, async (_params, ctx) => {
      const plans = await listPlans(ctx);
      return { success: true, data: plans, total: plans.length };
    }),
  };
}

export function addonRouter({ em, logger }: RouteDeps) {
  return {
    manage: implement<typeof contract.platform.addon.manage>(em, logger, async (params, ctx) => ({
      success: true,
      data: await assignAddon(ctx, params),
      message: 'Addon assigned successfully',
    })),
  };
}
