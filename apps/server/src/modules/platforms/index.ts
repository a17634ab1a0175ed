import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Platform } from './platform.entity.js';
import { platformRouter } from './platform.router.js';
import { platformsSeed } from './platform.seed.js';

export { PLATFORM_MEMBERS, type PlatformMembers } from './platform-members.port.js';
export { Platform } from './platform.entity.js';

export const platformsModule = defineModule({
  name: 'platforms',
  entities: [Platform],
  routes: [routes(contract.platform.id, platformRouter)],
  seed: [platformsSeed],
  demo: { platforms: [{ ref: 'demo', name: 'Demo Co', domain: 'demo.switchboard.local', isActive: true }] },
  examples: { platformId: { demo: 'platforms.demo', of: async (_em, viewer) => viewer.platformId } },
});
