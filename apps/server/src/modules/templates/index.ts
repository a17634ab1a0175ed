import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Template } from './template.entity.js';
import { templatesRouter } from './template.router.js';
import { templatesSeed } from './template.seed.js';

export const templatesModule = defineModule({
  name: 'templates',
  entities: [Template],
  routes: [routes(contract.workspace.chat.templates, templatesRouter)],
  seed: [templatesSeed],
});
