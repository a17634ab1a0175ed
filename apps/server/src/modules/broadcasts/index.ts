import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { exampleChannelId } from '../channels/index.js';
import { BroadcastRecipient } from './broadcast-recipient.entity.js';
import { broadcastScheduler } from './broadcast-scheduler.js';
import { channelRateService } from './broadcast.service.js';
import { broadcastStopsService, cancelSendsTask, prepareTask } from './broadcast-tasks.js';
import { Broadcast, BroadcastCountDelta } from './broadcast.entity.js';
import { broadcastsRouter } from './broadcast.router.js';
import { broadcastsSeed } from './broadcast.seed.js';
import { templateUsesService } from './broadcast-template-uses.js';

export { pauseTemplateBroadcasts } from './broadcast-pause.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Broadcasts: one approved template sent to an audience of a channel's contacts (labels, ids or all), now or at a
 * scheduled time, prepared in the background (a few per platform at a time), paced, with one recipient row per
 * phone whose status follows WhatsApp's reports; paused and resumed on request, and paused when Meta pauses or
 * disables its template (pauseTemplateBroadcasts).
 */
export const broadcastsModule = defineModule({
  name: 'broadcasts',
  entities: [Broadcast, BroadcastRecipient, BroadcastCountDelta],
  routes: [routes(contract.workspace.broadcasts, broadcastsRouter)],
  seed: [broadcastsSeed],
  services: [broadcastStopsService, templateUsesService, channelRateService],
  jobs: () => ({ targets: [], tasks: [prepareTask, cancelSendsTask], workers: [broadcastScheduler] }),
  demo: {
    broadcasts: [
      {
        ref: 'launch',
        channel: 'support',
        name: 'Order A-1001 shipped',
        templateName: 'order_update',
        variables: ['{{contact.name}}', 'A-1001'],
        audience: { all: true },
        status: 'completed',
      },
      {
        channel: 'support',
        name: 'Welcome week',
        templateName: 'welcome',
        variables: ['{{contact.name}}'],
        audience: { all: true },
        // Tomorrow, counted from when the demo is loaded: it stays scheduled through a first session.
        scheduledAt: new Date(Date.now() + DAY_MS).toISOString(),
      },
    ],
  },
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
