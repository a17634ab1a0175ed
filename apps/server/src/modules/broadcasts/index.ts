import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { exampleChannelId } from '../channels/index.js';
import { BroadcastRecipient } from './broadcast-recipient.entity.js';
import { broadcastSchedulerService } from './broadcast-scheduler.js';
import { Broadcast } from './broadcast.entity.js';
import { broadcastsRouter } from './broadcast.router.js';
import { broadcastsSeed } from './broadcast.seed.js';

const CHANNEL_RATE = 80;

/**
 * Broadcasts: one approved template sent to an audience of a channel's contacts (labels, ids or all), now or at a
 * scheduled time, paced, with one recipient row per phone whose status follows WhatsApp's reports.
 */
export const broadcastsModule = defineModule({
  name: 'broadcasts',
  entities: [Broadcast, BroadcastRecipient],
  routes: [routes(contract.workspace.broadcasts, (deps) => broadcastsRouter(deps, CHANNEL_RATE))],
  seed: [broadcastsSeed],
  services: [broadcastSchedulerService],
  examples: {
    broadcastId: {
      demo: 'broadcasts.launch',
      // In the channel the examples' channelId is.
      of: async (em, viewer) => {
        const channelId = await exampleChannelId(em, viewer);
        if (!channelId) return undefined;
        const newest = await em.findOne(
          Broadcast,
          { channel: channelId },
          { fields: ['id'], orderBy: { createdAt: 'desc', id: 'desc' } },
        );
        return newest?.id;
      },
    },
  },
});
