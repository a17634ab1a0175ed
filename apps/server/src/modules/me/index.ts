import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { meRouter } from './me.router.js';

/** workspace/me: who an API key is (its user and channels); no table of its own. */
export const meModule = defineModule({
  name: 'me',
  entities: [],
  routes: [routes({ me: contract.workspace.me }, meRouter)],
});
