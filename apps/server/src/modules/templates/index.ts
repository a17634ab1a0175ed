import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Template } from './template.entity.js';
import { templatesRouter } from './template.router.js';
import { templatesSeed } from './template.seed.js';

export { Template } from './template.entity.js';
export { countPlaceholders, fillPlaceholders, type PlaceholderContact } from './template-placeholders.js';
export { placeholderIssues, templateSendIssues } from './template-send-checks.js';
export type { StoredButton, StoredHeader } from './template-parts.js';
export { TEMPLATE_USES, type TemplateUses } from './template-uses.port.js';
export { applyTemplateChange, type TemplateChange } from './template-review.js';
export { assertTemplateApproved, sendTemplate } from './template.service.js';
export { templateSendParts } from './template-send-parts.js';

export const templatesModule = defineModule({
  name: 'templates',
  entities: [Template],
  routes: [routes(contract.workspace.chat.templates, templatesRouter)],
  seed: [templatesSeed],
  demo: {
    templates: [
      {
        ref: 'order',
        channel: 'support',
        name: 'order_update',
        category: 'UTILITY',
        language: 'en_US',
        status: 'approved',
        body: 'Hi {{1}}, your order {{2}} has shipped.',
      },
      {
        channel: 'support',
        name: 'welcome',
        category: 'MARKETING',
        language: 'en_US',
        status: 'approved',
        body: 'Welcome to Demo Co, {{1}}!',
      },
      {
        channel: 'support',
        name: 'spring_sale',
        category: 'MARKETING',
        language: 'en_US',
        status: 'pending',
        body: 'Spring sale: {{1}} off',
      },
      {
        channel: 'sales',
        name: 'follow_up',
        category: 'UTILITY',
        language: 'en_US',
        status: 'approved',
        body: 'Hi {{1}}, following up on our call.',
      },
    ],
  },
});
