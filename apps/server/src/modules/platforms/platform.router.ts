import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { PLATFORM_MEMBERS } from './platform-members.port.js';
import { getPlatform } from './platform.service.js';

export function platformRouter({ em, logger, services }: RouteDeps) {
  const members = services.get(PLATFORM_MEMBERS);
  return {
    list: implement<typeof contract.platform.id.list>(em, logger, async (_params, ctx) => ({
      success: true,
      data: await getPlatform(ctx, members),
    })),
  };
}
