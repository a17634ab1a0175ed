import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { listUsers } from './user.service.js';

export function usersRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.platform.users.list>(em, logger, async (params, ctx) => ({ success: true, ...(await listUsers(ctx, params)) })),
  };
}
