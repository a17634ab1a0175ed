import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { listChannels } from './channel.service.js';
import { describeCaller } from './me.service.js';

export function channelsRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.channels.list>(em, logger, async (_params, ctx) => {
      const channels = await listChannels(ctx);
      return { success: true, data: channels, total: channels.length };
    }),
  };
}

export function meRouter({ em, logger }: RouteDeps) {
  return {
    me: implement<typeof contract.workspace.me>(em, logger, async (_params, ctx) => ({
      success: true,
      data: await describeCaller(ctx),
    })),
  };
}
