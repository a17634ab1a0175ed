/**
 * A channel's conversations: the inbox (chat/conversations/list), a conversation's history (chat/messages/list) and
 * the files its customers sent (chat/media/get).
 */
import { z } from 'zod';
import {
  channelScoped,
  endpoint,
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
import { MESSAGE_DIRECTIONS, MESSAGE_TYPES, messageSchema, msgidParam } from './messages.js';

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
      createdAt: timestampSchema,
    }),
    unreadCount: z.number().int().describe('The contact’s inbound messages not yet read'),
    windowExpiresAt: timestampSchema
      .nullable()
      .describe('Until when session messages may be sent (newest inbound + 24 h); null when the contact never wrote'),
  }),
);
export type Conversation = z.infer<typeof conversationSchema>;

export const mediaLinkSchema = named(
  'MediaLink',
  z.object({
    url: z
      .string()
      .describe(
        'A link on this server to the file, valid until `expiresAt` (5 minutes), needing no API key: open it or ' +
          'hand it to a browser; it streams the bytes from the provider',
      ),
    mimeType: z.string().describe('As the provider reports it, e.g. `image/jpeg`'),
    size: z.number().int().nullable().describe('Bytes, when the provider says'),
    expiresAt: timestampSchema.describe('When the link stops working (ISO 8601, UTC)'),
  }),
);
export type MediaLink = z.infer<typeof mediaLinkSchema>;

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

export const conversationsContract = {
  list: endpoint({
    operation: 'workspace.chat.conversations.list',
    path: '/api/workspace/v1/chat/conversations/list',
    summary: 'List conversations (the inbox), paginated',
    description:
      'One item per contact of the channel with messages, most recent activity (inbound or outbound) first, with ' +
      'the newest message, the unread count and when the 24-hour window for session messages ends. `unread: true` ' +
      'lists only conversations with unread messages.',
    params: z.object({
      ...channelScoped,
      ...pagingParams('conversations'),
      unread: z.boolean().optional().describe('true: only conversations with unread inbound messages'),
    }),
    response: pageEnvelope(conversationSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId, page: 1, limit: 50 },
  }),
};

export const mediaContract = {
  get: endpoint({
    operation: 'workspace.chat.media.get',
    path: '/api/workspace/v1/chat/media/get',
    summary: 'Get a link to the file a customer sent',
    description:
      'For a customer’s image, document, audio, video or sticker (the `media.mediaId` of message.received and ' +
      'chat/messages/list): asks the provider about the file once and answers a link on this server, valid for 5 ' +
      'minutes, that needs no API key and streams the bytes (the provider’s own URL and the channel’s token never ' +
      'leave the server). An expired or altered link answers 404 `media_not_found`; ask again for a fresh one. A ' +
      'message without such a file (text, outbound, location, …): 404 `media_not_found`. A msgid outside the ' +
      'channels this key may use and one that does not exist both give 403. On a WhatsApp Cloud API channel Meta ' +
      'unreachable or failing gives 503 `provider_unavailable` with `Retry-After`, a refused token 502 ' +
      '`provider_unauthorized`, a file Meta no longer has (media ids expire after about 30 days) 400 ' +
      '`provider_rejected`. A sandbox channel has no provider behind it: its files are a 1×1 PNG placeholder.',
    params: z.object({ msgid: msgidParam }),
    response: okEnvelope(mediaLinkSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['media_not_found', 'provider_rejected', 'provider_unauthorized', 'provider_unavailable'],
    example: { msgid: 'wamid.DEMO0003' },
    failureExamples: {
      noMedia: {
        summary: 'a message without a customer’s file',
        status: 404,
        error: 'media_not_found',
        message: 'Message wamid.DEMO0001 has no file a customer sent.',
        request: { msgid: 'wamid.DEMO0001' },
      },
    },
  }),
};
