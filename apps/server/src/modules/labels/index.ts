import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Label } from './label.entity.js';
import { labelsRouter } from './label.router.js';
import { labelsSeed } from './label.seed.js';

export const labelsModule = defineModule({
  name: 'labels',
  entities: [Label],
  routes: [routes(contract.workspace.labels, labelsRouter)],
  seed: [labelsSeed],
});
