/**
 * A channel's conversations: the inbox (chat/conversations/list) and a conversation's history (chat/messages/list).
 */
import { z } from 'zod';
import {
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  isoTimeParam,
  named,
  okEnvelope,
  pageEnvelope,
  pagingParams,
  phoneParam,
  timestampSchema,
  userIdParam,
  uuidParam,
  withFieldRules,
  type FieldProblem,
} from '../common/index.js';
import { MESSAGE_DIRECTIONS, MESSAGE_TYPES, messageInteractiveSchema, messageSchema } from './messages.js';

const messagesListFields = z.object({
  ...channelScoped,
  ...pagingParams('messages'),
  contactId: uuidParam().optional().describe('One conversation: the contact’s id (or `phone`)'),
  phone: phoneParam().optional().describe('One conversation: the contact’s phone (or `contactId`)'),
  direction: z.enum(MESSAGE_DIRECTIONS).optional().describe('Only inbound or only outbound messages'),
});
export const messagesListParams = withFieldRules<z.input<typeof messagesListFields>>()(messagesListFields, {
  sets: [],
  check: (values) =>
    values.contactId !== undefined && values.phone !== undefined
      ? [{ field: 'phone', problem: 'cannot be combined with contactId: give one of them' }]
      : [],
});

export const CONVERSATION_STATUSES = ['open', 'pending', 'resolved', 'snoozed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
/** The latest a conversation can be snoozed until, from now. */
export const SNOOZE_MAX_DAYS = 90;

/** A conversation is addressed by its contact: `contactId`, or the contact's `phone`. */
export const conversationContactFields = {
  contactId: uuidParam().optional().describe('The conversation’s contact (or `phone`)'),
  phone: phoneParam().optional().describe('Or the contact’s phone, digits with country code'),
};

/** Exactly one of `contactId` and `phone`. */
export function contactProblems(values: { contactId?: string; phone?: string }): FieldProblem[] {
  if (values.contactId !== undefined && values.phone !== undefined)
    return [{ field: 'phone', problem: 'cannot be combined with contactId: give one of them' }];
  if (values.contactId === undefined && values.phone === undefined)
    return [{ field: 'contactId', problem: 'is required (or phone)' }];
  return [];
}

export const assigneeSchema = z.object({ id: idSchema, name: z.string() }).describe('A user: id and name');

export const conversationSchema = named(
  'Conversation',
  z.object({
    contactId: idSchema,
    phone: z.string(),
    name: z.string(),
    lastMessage: z.object({
      msgid: z.string(),
      direction: z.enum(MESSAGE_DIRECTIONS),
      type: z.enum(MESSAGE_TYPES),
      text: z.string().nullable(),
      interactive: messageInteractiveSchema.nullable(),
      createdAt: timestampSchema,
    }),
    unreadCount: z.number().int().describe('The contact’s inbound messages not yet read'),
    status: z.enum(CONVERSATION_STATUSES).describe('open, pending, resolved or snoozed'),
    snoozedUntil: timestampSchema.nullable().describe('When a snoozed conversation opens again by itself'),
    assignee: assigneeSchema.nullable().describe('The user who owns it (a member of the channel), or null'),
    lastInboundAt: timestampSchema.nullable().describe('When the contact last wrote; null when they never did'),
    resolvedAt: timestampSchema.nullable().describe('When it was last resolved; null unless it is resolved'),
    windowExpiresAt: timestampSchema
      .nullable()
      .describe('Until when session messages may be sent (newest inbound + 24 h); null when the contact never wrote'),
  }),
);
export type Conversation = z.infer<typeof conversationSchema>;

export const messagesHistoryContract = {
  list: endpoint({
    operation: 'workspace.chat.messages.list',
    path: '/api/workspace/v1/chat/messages/list',
    summary: 'List messages of a channel or one conversation, paginated',
    description:
      'Newest first (createdAt, then id). Templates, session messages and customers’ messages alike; `contactId` ' +
      'or `phone` narrows to one conversation (neither a contact of the channel: 404 `contact_not_found`).',
    params: messagesListParams,
    response: pageEnvelope(messageSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel', 'contact_not_found'],
    example: { channelId: EXAMPLE_IDS.channelId, phone: '15550000001', page: 1, limit: 50 },
  }),
};

const statusFilter = z
  .union([z.enum(CONVERSATION_STATUSES), z.array(z.enum(CONVERSATION_STATUSES)).min(1, 'must list a status').max(4)])
  .optional()
  .describe('Only conversations in this status, or in any of these (`status=open&status=pending` in a query)');
const assigneeFilter = z
  .union([z.literal('none'), z.literal('me'), uuidParam()])
  .optional()
  .describe('Only conversations assigned to this user id, to the key’s user (`me`), or to nobody (`none`)');

const conversationManageFields = z.object({
  ...channelScoped,
  ...conversationContactFields,
  status: z.enum(CONVERSATION_STATUSES).optional().describe('The new status'),
  snoozedUntil: isoTimeParam()
    .optional()
    .describe(
      `With status snoozed only (and required there): when it opens again; future, at most ${SNOOZE_MAX_DAYS} days`,
    ),
  assigneeId: userIdParam()
    .nullable()
    .optional()
    .describe('A user who is a member of the channel, `me` (the key’s user, see workspace/me), or null to unassign'),
});
type ConversationManageFields = z.input<typeof conversationManageFields>;
/** The contact of a conversation: its id or its phone, exactly one. */
export type ConversationContact = { contactId: string; phone?: undefined } | { phone: string; contactId?: undefined };
type Assignee = ConversationManageFields['assigneeId'];
/** At least one change; `snoozed` with when it opens again (ISO 8601 or a Date), and only it. */
type ConversationChange =
  | { status: 'snoozed'; snoozedUntil: string | Date; assigneeId?: Assignee }
  | { status: 'open' | 'pending' | 'resolved'; snoozedUntil?: undefined; assigneeId?: Assignee }
  | { status?: undefined; snoozedUntil?: undefined; assigneeId: string | null };
/** What chat/conversations/manage takes, as its rules have it: the SDK's type refuses what the server would. */
export type ConversationManageInput = Pick<ConversationManageFields, 'channelId'> &
  ConversationContact &
  ConversationChange;
export type ConversationManageValues = z.output<typeof conversationManageFields>;

const DAY_MS = 86_400_000;

function conversationManageProblems(values: ConversationManageValues, now = Date.now()): FieldProblem[] {
  const problems = contactProblems(values);
  if (values.status === undefined && values.snoozedUntil === undefined && values.assigneeId === undefined)
    problems.push({ field: 'status', problem: 'give at least one of status, snoozedUntil and assigneeId' });
  if (values.status === 'snoozed' && values.snoozedUntil === undefined)
    problems.push({ field: 'snoozedUntil', problem: 'is required with status snoozed' });
  if (values.snoozedUntil !== undefined) {
    const until = Date.parse(values.snoozedUntil);
    if (values.status !== 'snoozed') problems.push({ field: 'snoozedUntil', problem: 'goes only with status snoozed' });
    else if (until <= now) problems.push({ field: 'snoozedUntil', problem: 'must be in the future' });
    else if (until > now + SNOOZE_MAX_DAYS * DAY_MS)
      problems.push({ field: 'snoozedUntil', problem: `must be at most ${SNOOZE_MAX_DAYS} days ahead` });
  }
  return problems;
}

export const conversationManageParams = withFieldRules<ConversationManageInput>()(conversationManageFields, {
  // The contact (by id or phone) and at least one change: `snoozedUntil` comes only with `status: snoozed`.
  sets: [
    ['contactId', 'status'],
    ['contactId', 'assigneeId'],
    ['phone', 'status'],
    ['phone', 'assigneeId'],
  ],
  check: (values) => conversationManageProblems(values),
});

export const conversationsContract = {
  list: endpoint({
    operation: 'workspace.chat.conversations.list',
    path: '/api/workspace/v1/chat/conversations/list',
    summary: 'List conversations (the inbox), paginated',
    description:
      'One item per contact of the channel with messages, most recent activity (inbound or outbound) first, with ' +
      'the newest message, the unread count, its status and assignee, and when the 24-hour window for session ' +
      'messages ends. `unread: true` lists only conversations with unread messages; `status` (one or several) and ' +
      '`assigneeId` (a user id, `me` or `none`) filter by lifecycle. `pagination.total` is exact.',
    params: z.object({
      ...channelScoped,
      ...pagingParams('conversations'),
      unread: z.boolean().optional().describe('true: only conversations with unread inbound messages'),
      status: statusFilter,
      assigneeId: assigneeFilter,
    }),
    response: pageEnvelope(conversationSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId, status: 'open', page: 1, limit: 50 },
  }),
  manage: endpoint({
    operation: 'workspace.chat.conversations.manage',
    path: '/api/workspace/v1/chat/conversations/manage',
    summary: 'Set a conversation’s status, snooze it, or assign it',
    description: [
      'The conversation with a contact of the channel (`contactId` or `phone`), with at least one of `status`, ' +
        '`snoozedUntil` and `assigneeId`. `snoozed` needs `snoozedUntil` (and only it takes one): in the future, ' +
        `at most ${SNOOZE_MAX_DAYS} days ahead; the conversation opens again by itself then. \`assigneeId\` is a ` +
        'user who is a member of the channel (anyone else: 400 naming `assigneeId`), or null to unassign. The ' +
        'reply is the conversation as chat/conversations/list shows it. An unknown contact, or one without ' +
        'messages: 404 `conversation_not_found`.',
      'A customer’s message opens a resolved, pending or snoozed conversation again. Every change sends ' +
        '`conversation.updated` with the fields that changed and who changed them.',
    ].join('\n\n'),
    params: conversationManageParams,
    response: okEnvelope(conversationSchema),
    rateClass: 'api_write',
    access: { scope: 'workspace' },
    // Sets a status or an assignee: the same call again changes nothing more.
    effects: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
    errors: ['no_channel', 'conversation_not_found'],
    example: { channelId: EXAMPLE_IDS.channelId, phone: '15550000001', status: 'open' },
    failureExamples: {
      snoozedUntilRequired: {
        summary: 'snoozed without when it opens again',
        status: 400,
        error: 'invalid_request',
        message: 'snoozedUntil: is required with status snoozed',
        request: { channelId: EXAMPLE_IDS.channelId, phone: '15550000001', status: 'snoozed' },
      },
    },
  }),
};
