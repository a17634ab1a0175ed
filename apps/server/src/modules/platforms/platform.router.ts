import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { getPlatform } from './platform.service.js';

export function platformRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.platform.id.list>(em, logger, async (_params, ctx) => ({
      success: true,
      data: await getPlatform(ctx),
    })),
  };
}
