import { z } from 'zod';
import {
  channelScoped,
  endpoint,
  exactlyOneOf,
  EXAMPLE_IDS,
  idSchema,
  named,
  okEnvelope,
  pageEnvelope,
  pagingParams,
  phoneParam,
  timestampSchema,
  uuidParam,
  withFieldRules,
} from '../common/index.js';
import { labelNameParam } from './labels.js';

export const CONTACT_STATUSES = ['active', 'blocked', 'unsubscribed'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];
/**
 * A customer's message that is exactly one of these (case, spaces and accents ignored) unsubscribes their contact
 * on that channel; one of OPT_IN_WORDS makes an unsubscribed contact active again. The same on every channel.
 */
export const OPT_OUT_WORDS = ['STOP', 'UNSUBSCRIBE', 'STOPP', 'ARRET'] as const;
export const OPT_IN_WORDS = ['START'] as const;
/** A search counts its matches exactly up to this many; past it `total` is a lower bound (see the description). */
export const CONTACTS_SEARCH_COUNT_CAP = 1_000;

export const contactLabelSchema = named(
  'ContactLabel',
  z.object({ id: idSchema, name: z.string(), color: z.string().nullable() }),
);

export const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const contactSchema = named(
  'Contact',
  z.object({
    id: idSchema,
    name: z.string(),
    phone: z.string().describe('Digits only, with country code, no plus sign'),
    email: z.string().nullable(),
    labels: z.array(contactLabelSchema),
    status: z.enum(CONTACT_STATUSES),
    customFields: z.record(customFieldValueSchema).describe('Values keyed by custom field name'),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  }),
);
export type Contact = z.infer<typeof contactSchema>;

export const contactsListParams = z.object({
  ...channelScoped,
  ...pagingParams('contacts'),
  search: z
    .string()
    .trim()
    .max(100, 'must be at most 100 characters')
    .optional()
    .describe(
      'Case-insensitive start of a word of the name (may run on past the word: `john sm`), or digits anywhere in the ' +
        'phone ' +
        '(+, spaces, dashes and parentheses in the term are ignored)',
    ),
});

const labelNames = (what: string) =>
  z.array(labelNameParam()).max(100, 'must list at most 100 labels').optional().describe(what);

export const contactManageParams = z.object({
  ...channelScoped,
  phone: phoneParam().describe(
    'The upsert key: digits with country code (+, spaces, dashes and parentheses are stripped)',
  ),
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('Required when the contact is created'),
  email: z
    .string()
    .trim()
    .max(320, 'must be at most 320 characters')
    .email('must be an email address')
    .nullable()
    .optional()
    .describe('null clears it'),
  status: z.enum(CONTACT_STATUSES).optional().describe('`active` for a new contact unless given'),
  customFields: z
    .record(
      z.union([z.string(), z.number(), z.boolean(), z.null()], {
        errorMap: () => ({ message: 'must be a string, number, boolean or null' }),
      }),
    )
    .optional()
    .describe(
      'Values keyed by custom field name (custom-fields/list), each checked against its field: `text` a string (≤ ' +
        '1000 characters), ' +
        '`number` a number, `date` a `YYYY-MM-DD` string, `boolean` true or false, `select` one of its `options`. ' +
        'null clears a value; ' +
        'fields left out keep theirs. Via GET: JSON text, `customFields={"Age":36}`',
    ),
  labels: labelNames('Label names: replaces the contact’s labels with exactly these'),
  addLabels: labelNames('Label names to add to the contact’s labels'),
  removeLabels: labelNames('Label names to take off the contact'),
  createMissingLabels: z
    .boolean()
    .default(false)
    .describe('Create the labels named in `labels`/`addLabels` that do not exist yet, instead of refusing them'),
});
export type ContactManageValues = z.output<typeof contactManageParams>;

const contactLookupFields = z.object({
  ...channelScoped,
  contactId: uuidParam().optional().describe('The contact’s id'),
  phone: phoneParam().optional().describe('Or its phone number, digits with country code'),
});
type ContactLookupInput = z.input<typeof contactLookupFields>;
/** A contact of the channel, by id or by phone (one of them). */
export type ContactLookupParams =
  | (ContactLookupInput & { contactId: string; phone?: undefined })
  | (ContactLookupInput & { phone: string; contactId?: undefined });
export const contactLookupParams = withFieldRules<ContactLookupParams>()(
  contactLookupFields,
  exactlyOneOf('phone', 'contactId'),
);
export type ContactLookupValues = z.output<typeof contactLookupParams>;

export const contactsContract = {
  list: endpoint({
    operation: 'workspace.contacts.list',
    path: '/api/workspace/v1/contacts/list',
    summary: 'List contacts of a channel, paginated',
    description: [
      'Newest first (createdAt, then id, descending). Each contact carries its labels and custom field values.',
      '`pagination.total` is exact for a listing without `search`. A search counts its matches exactly up to ' +
        `${CONTACTS_SEARCH_COUNT_CAP.toLocaleString('en-US')}; when more match, \`total\` reports that cap (or the ` +
        'number of contacts up to the requested page, if higher) and `pages` follows it: narrow the search rather ' +
        'than ' +
        'paging through it.',
      '`search` matches a contact when, case-insensitively and with runs of whitespace folded, it is the beginning ' +
        'of ' +
        'a word of the name and may run on past that word: `mich` finds "Michael Smith" and "Anna Michalska", `john ' +
        'sm` ' +
        'finds "John Smith", `ller` does not find "Müller". A word starts at the beginning of the name, after a ' +
        'space, ' +
        'and at a letter or digit after punctuation (`luc` finds "Jean-Luc"). A term that is digits once +, spaces, ' +
        'dashes and parentheses are stripped also matches the phones containing those digits (`27-72` finds ' +
        '4915127720001).',
    ].join('\n\n'),
    params: contactsListParams,
    response: pageEnvelope(contactSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId, page: 1, limit: 50, search: 'ada' },
  }),
  manage: endpoint({
    operation: 'workspace.contacts.manage',
    path: '/api/workspace/v1/contacts/manage',
    summary: 'Create or update a contact by phone',
    description: [
      'Upsert by phone number within the channel: concurrent calls for one phone meet on one contact. Creating needs ' +
        '`name`; ' +
        'on update, parameters left out keep their value. Message: `Contact created successfully` or `Contact ' +
        'updated successfully`; ' +
        'the reply is the contact as contacts/list shows it.',
      '`customFields` is checked against the channel’s custom fields (an unknown name, a value of the wrong type, an ' +
        'option ' +
        'that is not listed, or a required field left empty on creation or cleared is a 400 naming ' +
        '`customFields.<name>`).',
      'Labels by name: `labels` replaces the set, `addLabels`/`removeLabels` change it (not together with `labels`). ' +
        'An ' +
        'unknown name is a 400, unless `createMissingLabels` is true (then `labels` and `addLabels` create it).',
    ].join('\n\n'),
    params: contactManageParams,
    response: okEnvelope(contactSchema),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // An upsert by phone: the same call again changes nothing more.
    effects: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
    errors: ['no_channel'],
    example: {
      channelId: EXAMPLE_IDS.channelId,
      phone: '+1 555 000 0004',
      name: 'Katherine Johnson',
      email: 'katherine@example.com',
      status: 'active',
      addLabels: ['vip'],
      // In a workspace without the label yet, it is made on the way.
      createMissingLabels: true,
    },
  }),
  get: endpoint({
    operation: 'workspace.contacts.get',
    path: '/api/workspace/v1/contacts/get',
    summary: 'Get one contact by id or phone',
    description:
      'The contact as contacts/list shows it. Not in this channel: 404 `contact_not_found`; a contactId of a channel ' +
      'the key is not authorized for: 403.',
    params: contactLookupParams,
    response: okEnvelope(contactSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel', 'contact_not_found'],
    // The contact contacts/manage's example, the request before it, creates or updates.
    example: { channelId: EXAMPLE_IDS.channelId, phone: '15550000004' },
  }),
  delete: endpoint({
    operation: 'workspace.contacts.delete',
    path: '/api/workspace/v1/contacts/delete',
    summary: 'Delete a contact',
    description:
      'Deletes the contact with its label assignments and returns it as it was. Message: `Contact deleted ' +
      'successfully`. Not in this channel: 404 `contact_not_found`; a contactId of a channel the key is not ' +
      'authorized for: 403.',
    params: z.object({ ...channelScoped, contactId: uuidParam().describe('The contact’s id') }),
    response: okEnvelope(contactSchema),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    errors: ['no_channel', 'contact_not_found'],
    example: { channelId: EXAMPLE_IDS.channelId, contactId: EXAMPLE_IDS.contactId },
  }),
};
