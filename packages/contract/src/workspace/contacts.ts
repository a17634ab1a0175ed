import { z } from 'zod';
import { channelScoped, endpoint, idSchema, pageEnvelope, timestampSchema } from '../common/index.js';

export const CONTACT_STATUSES = ['active', 'blocked', 'unsubscribed'] as const;
export const CONTACTS_MAX_LIMIT = 200;

export const contactLabelSchema = z.object({ id: idSchema, name: z.string(), color: z.string().nullable() });

export const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const contactSchema = z.object({
  id: idSchema,
  name: z.string(),
  phone: z.string().describe('Digits only, with country code, no plus sign'),
  email: z.string().nullable(),
  labels: z.array(contactLabelSchema),
  status: z.enum(CONTACT_STATUSES),
  customFields: z.record(customFieldValueSchema).describe('Values keyed by custom field name'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Contact = z.infer<typeof contactSchema>;

export const contactsListParams = z.object({
  ...channelScoped,
  page: z.number().int('must be an integer').min(1, 'must be at least 1').default(1).describe('Page number, from 1'),
  limit: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(CONTACTS_MAX_LIMIT, `must be at most ${CONTACTS_MAX_LIMIT}`)
    .default(50)
    .describe(`Page size, 1..${CONTACTS_MAX_LIMIT}`),
  search: z
    .string()
    .trim()
    .max(100, 'must be at most 100 characters')
    .optional()
    .describe('Case-insensitive substring of the name or phone (+, spaces and dashes in a phone are ignored)'),
});

export const contactsContract = {
  list: endpoint({
    operation: 'workspace.contacts.list',
    path: '/api/workspace/v1/contacts/list',
    summary: 'List contacts of a channel, paginated',
    description: 'Newest first. Each contact carries its labels and custom field values.',
    params: contactsListParams,
    response: pageEnvelope(contactSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: [404],
    example: { channelId: '{{channelId}}', page: 1, limit: 50, search: 'ada' },
  }),
};
