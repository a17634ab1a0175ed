import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { CustomField } from './custom-field.entity.js';
import { customFieldsRouter } from './custom-field.router.js';
import { customFieldsSeed } from './custom-field.seed.js';

export { listCustomFields } from './custom-field.service.js';
export { checkCustomFieldValues, mergeCustomFieldValues, type CustomFieldValues } from './custom-field-values.js';

export const customFieldsModule = defineModule({
  name: 'custom-fields',
  entities: [CustomField],
  routes: [routes(contract.workspace.customFields, customFieldsRouter)],
  seed: [customFieldsSeed],
  demo: {
    customFields: [
      { channel: 'support', name: 'Age', type: 'number', displayOrder: 1 },
      { channel: 'support', name: 'Plan', type: 'select', options: ['free', 'pro', 'enterprise'], displayOrder: 2 },
      { channel: 'support', name: 'Birthday', type: 'date', displayOrder: 3 },
    ],
  },
});
