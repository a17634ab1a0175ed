import { z } from 'zod';
import { channelScoped, endpoint, EXAMPLE_IDS, idSchema, listEnvelope, named } from '../common/index.js';

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'select'] as const;

export const customFieldSchema = named(
  'CustomField',
  z.object({
    id: idSchema,
    name: z.string(),
    type: z.enum(CUSTOM_FIELD_TYPES),
    isRequired: z.boolean(),
    options: z.array(z.string()).nullable().describe('Choices of a `select` field; null otherwise'),
    displayOrder: z.number().int(),
  }),
);
export type CustomField = z.infer<typeof customFieldSchema>;

export const customFieldsContract = {
  list: endpoint({
    operation: 'workspace.customFields.list',
    path: '/api/workspace/v1/custom-fields/list',
    summary: 'List custom field definitions of a channel',
    description:
      'Ordered by displayOrder, then name. `options` lists the choices of a `select` field and is null for every ' +
      'other type.',
    params: z.object({ ...channelScoped }),
    response: listEnvelope(customFieldSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId },
  }),
};
