import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { listChannels } from './channel.service.js';

export function channelsRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.channels.list>(em, logger, async (_params, ctx) => {
      const channels = await listChannels(ctx);
      return { success: true, data: channels, total: channels.length };
    }),
  };
}
