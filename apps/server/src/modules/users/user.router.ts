import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { PLAN_HOLDERS } from './plan-holders.port.js';
import { listUsers } from './user.service.js';

export function usersRouter({ em, logger, services }: RouteDeps) {
  const planHolders = services.get(PLAN_HOLDERS);
  return {
    list: implement<typeof contract.platform.users.list>(em, logger, async (params, ctx) => ({
      success: true,
      ...(await listUsers(ctx, planHolders, params)),
    })),
  };
}
