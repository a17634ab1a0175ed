import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { listAutomations, listRuns, manageAutomation } from './automation.service.js';

export function automationsRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.automations.list>(em, logger, async ({ channelId, ...query }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const { data, pagination } = await listAutomations(ctx, channel.id, query);
      return { success: true, data, pagination, total: pagination.total };
    }),
    manage: implement<typeof contract.workspace.automations.manage>(em, logger, async (params, ctx) => {
      const channel = await resolveChannel(ctx, params.channelId);
      const { automation, message } = await manageAutomation(ctx, channel, params);
      return { success: true, data: automation, message };
    }),
    runs: implement<typeof contract.workspace.automations.runs>(em, logger, async ({ channelId, ...query }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const { data, pagination } = await listRuns(ctx, channel.id, query);
      return { success: true, data, pagination };
    }),
  };
}
