import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { deleteLabel, listLabels, upsertLabel } from './label.service.js';

export function labelsRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.labels.list>(em, logger, async ({ channelId }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const labels = await listLabels(ctx, channel.id);
      return { success: true, data: labels, total: labels.length };
    }),
    manage: implement<typeof contract.workspace.labels.manage>(em, logger, async ({ channelId, ...changes }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const { label, created } = await upsertLabel(ctx, channel.id, changes);
      return {
        success: true,
        data: label,
        message: created ? 'Label created successfully' : 'Label updated successfully',
      };
    }),
    delete: implement<typeof contract.workspace.labels.delete>(em, logger, async (params, ctx) => {
      const channel = await resolveChannel(ctx, params.channelId);
      return { success: true, data: await deleteLabel(ctx, channel, params), message: 'Label deleted successfully' };
    }),
  };
}
