import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { ChannelUser } from './channel-user.entity.js';
import { Channel } from './channel.entity.js';
import { channelsRouter } from './channel.router.js';
import { channelsSeed } from './channel.seed.js';

export const channelsModule = defineModule({
  name: 'channels',
  entities: [Channel, ChannelUser],
  routes: [routes(contract.workspace.channels, channelsRouter)],
  seed: [channelsSeed],
});
