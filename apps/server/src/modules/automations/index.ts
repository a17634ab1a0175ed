import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Automation } from './automation.entity.js';
import { automationsRouter } from './automation.router.js';
import { automationsSeed } from './automation.seed.js';

export const automationsModule = defineModule({
  name: 'automations',
  entities: [Automation],
  routes: [routes(contract.workspace.automations, automationsRouter)],
  seed: [automationsSeed],
});
