import { z } from 'zod';
import {
  channelScoped,
  endpoint,
  exactlyOneOf,
  EXAMPLE_IDS,
  idSchema,
  listEnvelope,
  named,
  okEnvelope,
  uuidParam,
  withFieldRules,
} from '../common/index.js';

export const labelSchema = named(
  'Label',
  z.object({
    id: idSchema,
    channelId: idSchema,
    name: z.string(),
    description: z.string().nullable(),
    color: z.string().nullable().describe('#rrggbb'),
    sortOrder: z.number().int(),
  }),
);
export type Label = z.infer<typeof labelSchema>;

/** A label's name: matched exactly (case counts) after trimming surrounding spaces. */
export const labelNameParam = () =>
  z
    .string({ required_error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters');

export const labelManageParams = z.object({
  ...channelScoped,
  name: labelNameParam().describe('Label name, the upsert key (exact match within the channel)'),
  description: z.string().max(500, 'must be at most 500 characters').nullable().optional(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex color like #ff8800')
    .nullable()
    .optional()
    .describe('Hex color #rrggbb'),
  sortOrder: z
    .number()
    .int('must be an integer')
    .min(-1_000_000, 'must be at least -1000000')
    .max(1_000_000, 'must be at most 1000000')
    .optional()
    .describe('Sort order; 0 for a new label when omitted'),
});

const labelLookupFields = z.object({
  ...channelScoped,
  name: labelNameParam().optional().describe('The label’s name (exact match within the channel)'),
  labelId: uuidParam().optional().describe('Or its id'),
});
type LabelLookupInput = z.input<typeof labelLookupFields>;
/** A label of the channel, by name or by id (one of them). */
export type LabelLookupParams =
  | (LabelLookupInput & { name: string; labelId?: undefined })
  | (LabelLookupInput & { labelId: string; name?: undefined });
export const labelLookupParams = withFieldRules<LabelLookupParams>()(
  labelLookupFields,
  exactlyOneOf('name', 'labelId'),
);
export type LabelLookupValues = z.output<typeof labelLookupParams>;

export const labelsContract = {
  list: endpoint({
    operation: 'workspace.labels.list',
    path: '/api/workspace/v1/labels/list',
    summary: 'List labels of a channel',
    description: 'Ordered by sortOrder, then name.',
    params: z.object({ ...channelScoped }),
    response: listEnvelope(labelSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId },
  }),
  manage: endpoint({
    operation: 'workspace.labels.manage',
    path: '/api/workspace/v1/labels/manage',
    summary: 'Create or update a label by name',
    description:
      'Upsert by exact name within the channel. Fields left out keep their value on update. Message: `Label created ' +
      'successfully` or `Label updated successfully`.',
    params: labelManageParams,
    response: okEnvelope(labelSchema),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // An upsert by name: the same call again changes nothing more.
    effects: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
    errors: ['no_channel'],
    example: {
      channelId: EXAMPLE_IDS.channelId,
      name: 'vip',
      description: 'Top customers',
      color: '#ff8800',
      sortOrder: 1,
    },
  }),
  delete: endpoint({
    operation: 'workspace.labels.delete',
    path: '/api/workspace/v1/labels/delete',
    summary: 'Delete a label',
    description:
      'Deletes the label, by name or id, and takes it off every contact that had it; returns the label as it was. ' +
      'Message: `Label deleted successfully`. Not in this channel: 404 `label_not_found`; a labelId of a channel the ' +
      'key is not authorized for: 403.',
    params: labelLookupParams,
    response: okEnvelope(labelSchema),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    errors: ['no_channel', 'label_not_found'],
    example: { channelId: EXAMPLE_IDS.channelId, name: 'obsolete' },
  }),
};
