import { z } from 'zod';
import {
  actionVariants,
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  named,
  okEnvelope,
  pageEnvelope,
  pagingParams,
  timestampSchema,
  userIdParam,
  uuidParam,
  withFieldRules,
  type ActionVariantsOutput,
} from '../common/index.js';
import { contactProblems, conversationContactFields, type ConversationContact } from './conversations.js';

export const NOTE_MAX_LENGTH = 4000;

export const noteSchema = named(
  'Note',
  z.object({
    id: idSchema,
    contactId: idSchema,
    author: z
      .object({ id: idSchema.nullable().describe('null once that user is deleted'), name: z.string() })
      .describe('The user whose key wrote it'),
    text: z.string(),
    createdAt: timestampSchema,
  }),
);
export type Note = z.infer<typeof noteSchema>;

const noteCreateFields = z.object({
  ...conversationContactFields,
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(NOTE_MAX_LENGTH, `must be at most ${NOTE_MAX_LENGTH} characters`)
    .describe(`create: the note, 1–${NOTE_MAX_LENGTH} characters`),
});
const noteActions = {
  create: withFieldRules<ConversationContact & { text: string }>()(noteCreateFields, {
    sets: [['contactId'], ['phone']],
    check: contactProblems,
  }),
  delete: z.object({ noteId: uuidParam().describe('delete: the note') }),
};
export type NoteManageValues = ActionVariantsOutput<typeof channelScoped, typeof noteActions>;
/** `create`: a note on the conversation with a contact (its id or phone). */
export type NoteCreateValues = Extract<NoteManageValues, { action: 'create' }>;

export const noteManageParams = actionVariants(noteActions, {
  shared: channelScoped,
  describe: '`create` a note on a conversation, or `delete` one',
  noun: 'a note',
});
export type NoteManageParams = z.input<typeof noteManageParams>;

const noteListFields = z.object({
  ...channelScoped,
  ...pagingParams('notes'),
  ...conversationContactFields,
  authorId: userIdParam().optional().describe('Only the notes this user wrote (`me`: the key’s user)'),
});
export const noteListParams = withFieldRules<z.input<typeof noteListFields>>()(noteListFields, {
  sets: [['contactId'], ['phone']],
  check: contactProblems,
});

/**
 * The contact the examples write a note on and list the notes of: the one contacts/manage's example creates (or
 * updates), so a collection run in order finds it in any workspace.
 */
const KATHERINE = '15550000004';

export const notesContract = {
  manage: endpoint({
    operation: 'workspace.chat.notes.manage',
    path: '/api/workspace/v1/chat/notes/manage',
    summary: 'Write or delete a private note on a conversation',
    description: [
      '`create` adds a note to the conversation with a contact of the channel (`contactId` or `phone`; unknown: ' +
        '404 `contact_not_found`), written by the key’s user; the reply is the note, message `Note created`. ' +
        '`delete` removes one (`noteId`): only its author or a user with platform access may (others: 403); ' +
        'unknown: 404 `note_not_found`; the reply is the deleted note, message `Note deleted`.',
      'Notes are for your team: they never reach the customer, are not messages, and trigger no automation.',
    ].join('\n\n'),
    params: noteManageParams,
    response: okEnvelope(noteSchema),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // `delete` removes a note; `create` again writes another.
    effects: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
    errors: ['no_channel', 'contact_not_found', 'note_not_found'],
    example: {
      channelId: EXAMPLE_IDS.channelId,
      action: 'create',
      phone: KATHERINE,
      text: 'Called Katherine: the courier comes on Monday.',
    },
    failureExamples: {
      textRequired: {
        summary: 'create without the note',
        status: 400,
        error: 'invalid_request',
        message: 'text: is required to create a note',
      },
    },
  }),
  list: endpoint({
    operation: 'workspace.chat.notes.list',
    path: '/api/workspace/v1/chat/notes/list',
    summary: 'List the notes on a conversation, paginated',
    description:
      'Newest first (createdAt, then id). The conversation is the contact’s (`contactId` or `phone`; not a ' +
      'contact of the channel: 404 `contact_not_found`).',
    params: noteListParams,
    response: pageEnvelope(noteSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel', 'contact_not_found'],
    // The conversation the example of chat/notes/manage, the request before it, writes on.
    example: { channelId: EXAMPLE_IDS.channelId, phone: KATHERINE, page: 1, limit: 50 },
  }),
};
