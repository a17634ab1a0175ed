import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { describeCaller } from './me.service.js';

export function meRouter({ em, logger }: RouteDeps) {
  return {
    me: implement<typeof contract.workspace.me>(em, logger, async (_params, ctx) => ({
      success: true,
      data: await describeCaller(ctx),
    })),
  };
}
