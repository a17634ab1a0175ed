import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import {
  CHANNEL_RATE,
  cancelBroadcast,
  createBroadcast,
  listBroadcasts,
  listRecipients,
  pauseBroadcast,
  resumeBroadcast,
} from './broadcast.service.js';

export function broadcastsRouter({ em, logger, jobs, services }: RouteDeps) {
  const channelRate = services.get(CHANNEL_RATE);
  return {
    manage: implement<typeof contract.workspace.broadcasts.manage>(em, logger, async (params, ctx) => {
      const channel = await resolveChannel(ctx, params.channelId);
      if (params.action === 'cancel') {
        const data = await cancelBroadcast(ctx, jobs, channel, params.broadcastId);
        return { success: true, data, message: 'Broadcast cancelled successfully' };
      }
      if (params.action === 'pause') {
        const data = await pauseBroadcast(ctx, channel, params.broadcastId);
        return { success: true, data, message: 'Broadcast paused successfully' };
      }
      if (params.action === 'resume') {
        const data = await resumeBroadcast(ctx, jobs, channel, params.broadcastId);
        return { success: true, data, message: 'Broadcast resumed successfully' };
      }
      const data = await createBroadcast(ctx, channel, params, { channelRate, jobs });
      return { success: true, data, message: 'Broadcast created successfully' };
    }),
    list: implement<typeof contract.workspace.broadcasts.list>(em, logger, async ({ channelId, ...query }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      return { success: true, ...(await listBroadcasts(ctx, channel.id, query)) };
    }),
    recipients: implement<typeof contract.workspace.broadcasts.recipients>(
      em,
      logger,
      async ({ channelId, ...query }, ctx) => {
        const channel = await resolveChannel(ctx, channelId);
        return { success: true, ...(await listRecipients(ctx, channel, query)) };
      },
    ),
  };
}
