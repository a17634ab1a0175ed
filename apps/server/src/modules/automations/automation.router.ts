import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { listAutomations } from './automation.service.js';

export function automationsRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.automations.list>(em, logger, async ({ channelId }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const automations = await listAutomations(ctx, channel.id);
      return { success: true, data: automations, total: automations.length };
    }),
  };
}
