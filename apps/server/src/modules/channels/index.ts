import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { exampleChannelId } from './channel-example.js';
import { Channel } from './channel.entity.js';
import { ChannelUser } from './channel-user.entity.js';
import { channelsRouter } from './channel.router.js';
import { channelsSeed } from './channel.seed.js';

export { exampleChannelId } from './channel-example.js';
export { Channel } from './channel.entity.js';
export { channelView } from './channel.service.js';
export { ChannelUser } from './channel-user.entity.js';
export { assertInChannel, authorizedChannelIds, resolveChannel, type ScopedChannel } from './channel-scope.js';
export { listChannels } from './channel.service.js';

export const channelsModule = defineModule({
  name: 'channels',
  entities: [Channel, ChannelUser],
  routes: [routes(contract.workspace.channels, channelsRouter)],
  seed: [channelsSeed],
  demo: {
    channels: [
      { ref: 'support', platform: 'demo', name: 'Support', phone: '15550001111', users: ['owner', 'agent'] },
      { ref: 'sales', platform: 'demo', name: 'Sales', phone: '15550002222', users: ['owner'] },
    ],
  },
  examples: {
    channelId: { demo: 'channels.support', of: exampleChannelId },
  },
});
