import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Label } from './label.entity.js';
import { labelsRouter } from './label.router.js';
import { labelsSeed } from './label.seed.js';

export { Label } from './label.entity.js';
export { labelKey } from './label.seed.js';
export { labelIdsByName } from './label.service.js';

export const labelsModule = defineModule({
  name: 'labels',
  entities: [Label],
  routes: [routes(contract.workspace.labels, labelsRouter)],
  seed: [labelsSeed],
  demo: {
    labels: [
      { channel: 'support', name: 'vip', description: 'Top customers', color: '#ff8800', sortOrder: 1 },
      { channel: 'support', name: 'new', description: 'Joined this month', color: '#22aa55', sortOrder: 2 },
      { channel: 'sales', name: 'lead', description: 'Warm lead', color: '#3366ff', sortOrder: 1 },
    ],
  },
});
