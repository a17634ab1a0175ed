import { z } from 'zod';
import { channelScoped, endpoint, EXAMPLE_IDS, idSchema, named, pageEnvelope, timestampSchema } from '../common/index.js';

export const CONTACT_STATUSES = ['active', 'blocked', 'unsubscribed'] as const;
export const CONTACTS_MAX_LIMIT = 200;
export const CONTACTS_MAX_PAGE = 10_000_000;
/** A search counts its matches exactly up to this many; past it `total` is a lower bound (see the description). */
export const CONTACTS_SEARCH_COUNT_CAP = 1_000;

export const contactLabelSchema = named('ContactLabel', z.object({ id: idSchema, name: z.string(), color: z.string().nullable() }));

export const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const contactSchema = named('Contact', z.object({
  id: idSchema,
  name: z.string(),
  phone: z.string().describe('Digits only, with country code, no plus sign'),
  email: z.string().nullable(),
  labels: z.array(contactLabelSchema),
  status: z.enum(CONTACT_STATUSES),
  customFields: z.record(customFieldValueSchema).describe('Values keyed by custom field name'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
}));
export type Contact = z.infer<typeof contactSchema>;

export const contactsListParams = z.object({
  ...channelScoped,
  page: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(CONTACTS_MAX_PAGE, `must be at most ${CONTACTS_MAX_PAGE}`)
    .default(1)
    .describe('Page number, from 1; a page past the end returns no contacts'),
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
    .describe('Case-insensitive substring of the name or phone (+, spaces, dashes and parentheses in a phone are ignored)'),
});

export const contactsContract = {
  list: endpoint({
    operation: 'workspace.contacts.list',
    path: '/api/workspace/v1/contacts/list',
    summary: 'List contacts of a channel, paginated',
    description: [
      'Newest first (createdAt, then id, descending). Each contact carries its labels and custom field values.',
      '`pagination.total` is exact for a listing without `search`. A search counts its matches exactly up to ' +
        `${CONTACTS_SEARCH_COUNT_CAP.toLocaleString('en-US')}; when more match, \`total\` reports that cap (or the ` +
        'number of contacts up to the requested page, if higher) and `pages` follows it: narrow the search rather than ' +
        'paging through it.',
      'A search term from which a trigram can be taken (three letters or digits in a row, or a shorter piece next ' +
        'to a space or punctuation, like `27-72`) uses the trigram indexes; other terms scan the channel, which is ' +
        'slower on very large channels.',
    ].join('\n\n'),
    params: contactsListParams,
    response: pageEnvelope(contactSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId, page: 1, limit: 50, search: 'ada' },
  }),
};
