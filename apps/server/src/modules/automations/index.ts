import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { AutomationRun } from './automation-run.entity.js';
import { Automation } from './automation.entity.js';
import { automationsRouter } from './automation.router.js';
import { automationsSeed } from './automation.seed.js';

export const automationsModule = defineModule({
  name: 'automations',
  entities: [Automation, AutomationRun],
  routes: [routes(contract.workspace.automations, automationsRouter)],
  seed: [automationsSeed],
  demo: {
    automations: [
      { channel: 'support', name: 'Welcome new contacts', status: 'active', executionCount: 42 },
      { channel: 'support', name: 'Out of office reply', status: 'paused', executionCount: 7 },
    ],
  },
});
