import { z } from 'zod';
import { EXAMPLE_IDS, idSchema, named, timestampSchema } from '../common/index.js';
import { automationRunSchema } from '../workspace/automations.js';
import { broadcastSchema } from '../workspace/broadcasts.js';
import { CONTACT_STATUSES, contactSchema } from '../workspace/contacts.js';
import { assigneeSchema, CONVERSATION_STATUSES, conversationSchema } from '../workspace/conversations.js';
import {
  MESSAGE_OUTCOMES,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  messageErrorField,
  messageReasonField,
} from '../workspace/messages.js';
import { channelSchema } from '../workspace/channels.js';
import { templateSchema } from '../workspace/templates.js';
import { interactiveReplySchema, locationSchema, reactionSchema } from '../workspace/interactive.js';
import { ticketSchema } from './tickets.js';

/** What one event is: the schema of its `data`, when it fires, and a delivery as a receiver gets it. */
interface WebhookEventDefinition<D extends z.AnyZodObject> {
  /** One line for the OpenAPI `webhooks` entry, the Postman example and the Developer Portal. */
  summary: string;
  description: string;
  data: D;
  /** A whole delivery body (`type`, `timestamp`, `data`): OpenAPI and Postman examples; a test parses it. */
  example: { timestamp: string; data: z.input<D> };
}

/** `ticket.closed` → `TicketClosedEvent`: the component and SDK type name of each event's body. */
export const webhookEventName = (type: string) =>
  `${type.replace(/(^|\.)(\w)/g, (_, _dot: string, letter: string) => letter.toUpperCase())}Event`;

/** The body of every delivery: `{type, timestamp, data}`, the shape Standard Webhooks recommends. */
function eventSchema<T extends string, D extends z.AnyZodObject>(type: T, data: D, summary: string) {
  return named(
    webhookEventName(type),
    z.object({
      type: z.literal(type).describe(`\`${type}\`: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`),
      timestamp: timestampSchema.describe('When the change happened (ISO 8601, UTC)'),
      data: data.describe(`What \`${type}\` carries`) as D,
    }),
  );
}

/** Each definition with its body's schema, the event type taken from its key. */
function webhookEvents<E extends Record<string, WebhookEventDefinition<z.AnyZodObject>>>(definitions: E) {
  return Object.fromEntries(
    Object.entries(definitions).map(([type, definition]) => [
      type,
      { ...definition, schema: eventSchema(type, definition.data, definition.summary) },
    ]),
  ) as { [T in keyof E & string]: E[T] & { schema: ReturnType<typeof eventSchema<T, E[T]['data']>> } };
}

const EXAMPLE_TIME = '2026-01-31T09:30:00.000Z';

const TEMPLATE_EXAMPLE = {
  id: '3b5d7f9a-1c2e-4a6b-8d0f-2e4a6c8e0b13',
  name: 'order_update',
  category: 'UTILITY',
  language: 'en_US',
  status: 'paused',
  body: 'Hi {{1}}, your order {{2}} has shipped.',
  variableCount: 2,
  header: null,
  footer: null,
  buttons: [],
  rejectedReason: null,
  quality: 'red',
} satisfies z.input<typeof templateSchema>;

/** One field's change in an event: its value before and after. */
const change = <T extends z.ZodTypeAny>(value: T) => z.object({ previous: value, current: value });

export const messageReceivedMediaSchema = named(
  'MessageReceivedMedia',
  z.object({
    mediaId: z.string().describe('The provider’s media id: fetch the file with chat/media/get'),
    mimeType: z.string(),
    filename: z.string().optional().describe('Documents only'),
    caption: z.string().optional(),
  }),
);
export type MessageReceivedMedia = z.infer<typeof messageReceivedMediaSchema>;

/**
 * Every event a webhook endpoint can subscribe to, one entry each: the API, the seed file, the CLI, the Developer
 * Portal, the OpenAPI `webhooks` section, the Postman examples and the SDK's `SwitchboardEvent` all read this list.
 * The server builds each body against its schema's type, so a payload cannot drift from what is published.
 */
export const WEBHOOK_EVENTS = webhookEvents({
  'ticket.closed': {
    summary: 'A support ticket moved into closed',
    description:
      'Sent once per close, in the transaction that closed the ticket (closing an already closed ticket sends ' +
      'nothing). `data.ticket` is the ticket as tickets/get returns it; `timestamp` is its `closedAt`.',
    data: z.object({ ticket: ticketSchema }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        ticket: {
          id: EXAMPLE_IDS.ticketId,
          shortId: 'T-1042',
          title: 'Cannot log in',
          description: 'The login page says my password is wrong.',
          status: 'closed',
          priority: 'high',
          assignedToId: null,
          assignedToName: null,
          owner: { id: EXAMPLE_IDS.userId, email: 'customer@example.com', name: 'Pat Customer' },
          createdAt: '2026-01-30T15:02:11.000Z',
          updatedAt: EXAMPLE_TIME,
          closedAt: EXAMPLE_TIME,
          messages: [],
        },
      },
    },
  },
  'message.status.updated': {
    summary: 'A sent or queued message moved on or was cancelled',
    description:
      'Sent once per real change of an outbound message’s status, in the transaction that makes it: the provider’s ' +
      'answer to a queued or scheduled send (`accepted`, or `failed`), its reports (accepted < sent < delivered < ' +
      'read; `failed` with the provider’s `error`), and `cancelled` (with its `reason`: chat/message/cancel, a ' +
      'cancelled broadcast, or a contact no longer `active` when a MARKETING template’s or a broadcast’s turn ' +
      'came). Repeated, late and backward reports send nothing, nor does the send pipeline taking a message into ' +
      '`sending` (the next event’s `previousStatus` says it was).',
    data: z.object({
      msgid: z.string(),
      channelId: idSchema,
      status: z.enum(MESSAGE_OUTCOMES),
      previousStatus: z.enum(MESSAGE_STATUSES),
      error: messageErrorField,
      reason: messageReasonField,
      timestamp: timestampSchema.describe('When the change happened (the provider’s time for its reports)'),
    }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        msgid: 'wamid.DEMO0001',
        channelId: EXAMPLE_IDS.channelId,
        status: 'delivered',
        previousStatus: 'sent',
        timestamp: EXAMPLE_TIME,
      },
    },
  },
  'message.received': {
    summary: 'A contact wrote to one of your channels',
    description:
      'Sent once per customer message (a provider’s redelivery of the same message sends nothing). `text` is a ' +
      'text’s body, a media caption or a readable form of other types (button title, reaction, location); `media` ' +
      'is set for images, documents, audio, video and stickers. A tap on a reply button or a list row carries ' +
      '`interactive` with the id it was sent with and `replyTo`, the msgid of the message tapped; a reaction ' +
      '`reaction` (emoji null when removed); a location `location`. No secrets and no provider URLs.',
    data: z.object({
      msgid: z.string(),
      channelId: idSchema,
      contact: z.object({
        id: idSchema,
        name: z.string(),
        phone: z.string().describe('Digits only, with country code'),
      }),
      type: z.enum(MESSAGE_TYPES),
      text: z.string().nullable(),
      media: messageReceivedMediaSchema.nullable(),
      replyTo: z.string().nullable().describe('The msgid the customer replied to, or tapped a button or row of'),
      interactive: interactiveReplySchema.nullable(),
      reaction: reactionSchema.nullable(),
      location: locationSchema.nullable(),
      timestamp: timestampSchema.describe('When the customer sent it, as the provider reports'),
    }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        msgid: 'wamid.DEMO0002',
        channelId: EXAMPLE_IDS.channelId,
        contact: { id: EXAMPLE_IDS.contactId, name: 'Ada Lovelace', phone: '15550000001' },
        type: 'text',
        text: 'Hi! Where is my order A-1001?',
        media: null,
        replyTo: null,
        interactive: null,
        reaction: null,
        location: null,
        timestamp: EXAMPLE_TIME,
      },
    },
  },
  'conversation.updated': {
    summary: 'A conversation’s status, snooze or assignee changed',
    description:
      'Sent once per change, in the transaction that made it: `data.conversation` is the conversation as ' +
      'chat/conversations/list shows it afterwards, `changes` has each field that changed (`previous`, `current`), ' +
      'and `by` says who: a user (chat/conversations/manage) or the system (a customer’s message reopening it, a ' +
      'snooze running out).',
    data: z.object({
      channelId: idSchema,
      conversation: conversationSchema,
      changes: named(
        'ConversationChanges',
        z.object({
          status: change(z.enum(CONVERSATION_STATUSES)).optional(),
          snoozedUntil: change(timestampSchema.nullable()).optional(),
          assignee: change(assigneeSchema.nullable()).optional(),
        }),
      ),
      by: named(
        'ConversationChangedBy',
        z.union([z.object({ type: z.literal('user'), id: idSchema }), z.object({ type: z.literal('system') })]),
      ),
    }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        channelId: EXAMPLE_IDS.channelId,
        conversation: {
          contactId: EXAMPLE_IDS.contactId,
          phone: '15550000001',
          name: 'Ada Lovelace',
          lastMessage: {
            msgid: 'wamid.DEMO0002',
            direction: 'inbound',
            type: 'text',
            text: 'Hi! Where is my order A-1001?',
            interactive: null,
            createdAt: '2026-01-31T09:25:00.000Z',
          },
          unreadCount: 0,
          status: 'resolved',
          snoozedUntil: null,
          assignee: { id: EXAMPLE_IDS.userId, name: 'Demo Owner' },
          lastInboundAt: '2026-01-31T09:25:00.000Z',
          resolvedAt: EXAMPLE_TIME,
          windowExpiresAt: '2026-02-01T09:25:00.000Z',
        },
        changes: { status: { previous: 'open', current: 'resolved' } },
        by: { type: 'user', id: EXAMPLE_IDS.userId },
      },
    },
  },
  'contact.status.changed': {
    summary: 'A contact’s status changed',
    description:
      'Sent when a contact’s `status` changes: the customer sent a stop word (`unsubscribed`) or `START` (`active`), ' +
      'or contacts/manage set another status. `data.contact` is the contact as contacts/list shows it, with its new ' +
      'status; `previousStatus` the one before.',
    data: z.object({
      channelId: idSchema,
      contact: contactSchema,
      previousStatus: z.enum(CONTACT_STATUSES),
    }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        channelId: EXAMPLE_IDS.channelId,
        contact: {
          id: EXAMPLE_IDS.contactId,
          name: 'Ada Lovelace',
          phone: '15550000001',
          email: null,
          status: 'unsubscribed',
          labels: [],
          customFields: {},
          createdAt: EXAMPLE_TIME,
          updatedAt: EXAMPLE_TIME,
        },
        previousStatus: 'active',
      },
    },
  },
  'automation.run.completed': {
    summary: 'An automation ran on an event',
    description:
      'Sent once per automation run, in the transaction that recorded it: `data.run` is the run as ' +
      'automations/runs lists it (`succeeded`, `failed` with the failing step’s error, or `skipped` when the ' +
      'conditions did not hold).',
    data: z.object({ channelId: idSchema, run: automationRunSchema }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        channelId: EXAMPLE_IDS.channelId,
        run: {
          id: '5a3c1e7b-9d2f-4b6a-8c0e-1f3d5b7a9c24',
          automationId: '7e1a3c5b-2d4f-4a6b-9c8e-0f2d4b6a8c35',
          event: 'message.received',
          eventId: 'wamid.DEMO0002',
          contactId: EXAMPLE_IDS.contactId,
          outcome: 'succeeded',
          steps: [{ type: 'send_text', outcome: 'succeeded', msgid: 'wamid.DEMO0003' }],
          createdAt: EXAMPLE_TIME,
        },
      },
    },
  },
  'broadcast.completed': {
    summary: 'A broadcast finished sending',
    description:
      'Sent once per broadcast, in the transaction that completed it: when its last queued recipient was sent, ' +
      'failed or skipped (or at its start, when none was left to send). `data.broadcast` is the broadcast as ' +
      'broadcasts/list shows it, with its counts at that moment (deliveries and reads move them on afterwards). A ' +
      'cancelled broadcast sends nothing.',
    data: z.object({ channelId: idSchema, broadcast: broadcastSchema }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        channelId: EXAMPLE_IDS.channelId,
        broadcast: {
          id: EXAMPLE_IDS.broadcastId,
          name: 'January order updates',
          status: 'completed',
          pausedReason: null,
          templateName: 'order_update',
          audience: { labelIds: ['0c6e2a4b-8d1f-4e3a-b5c7-9d1f3b5a7c20'] },
          scheduledAt: null,
          ratePerSecond: 80,
          counts: { recipients: 3, queued: 0, sent: 2, delivered: 0, read: 0, failed: 0, skipped: 1 },
          createdAt: '2026-01-31T09:29:58.000Z',
          startedAt: '2026-01-31T09:29:58.000Z',
          completedAt: EXAMPLE_TIME,
        },
      },
    },
  },
  'template.updated': {
    summary: 'Meta changed a template: review status, quality or category',
    description:
      'Sent when Meta reports a template’s review result (approved, rejected with `reason`), pauses or disables it, ' +
      'rates its quality or moves it to another category (its `message_template_status_update`, ' +
      '`message_template_quality_update` and `template_category_update` webhooks; a sandbox channel’s review and ' +
      '`pnpm cli sandbox template-status`). `data.changes` holds each field that changed, before and after; ' +
      '`data.template` is the template as chat/templates/list shows it now. A template that becomes `paused` or ' +
      '`disabled` pauses, in the same transaction, the scheduled, preparing and sending broadcasts of it (that ' +
      'language): broadcasts/list shows them `paused` with `pausedReason: "template_paused"`, their queued ' +
      'recipients still queued, until broadcasts/manage `resume`s each once Meta approves the template again.',
    data: z.object({
      channelId: idSchema,
      template: templateSchema,
      changes: z
        .object({
          status: change(z.string()).optional(),
          quality: change(z.string()).optional(),
          category: change(z.string()).optional(),
        })
        .describe('The fields that changed: `status`, `quality`, `category`, each `{previous, current}`'),
      reason: z.string().nullable().describe('Meta’s reason (a rejection’s or a pause’s), when it gave one'),
    }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        channelId: EXAMPLE_IDS.channelId,
        template: TEMPLATE_EXAMPLE,
        changes: {
          status: { previous: 'approved', current: 'paused' },
          quality: { previous: 'yellow', current: 'red' },
        },
        reason: 'Paused for low quality',
      },
    },
  },
  'channel.updated': {
    summary: 'Meta changed a number’s quality rating or messaging tier',
    description:
      'Sent when Meta’s `phone_number_quality_update` webhook moves the channel’s messaging tier (`messagingLimit`) ' +
      'or, read from Graph then, its `quality` rating (and by `pnpm cli sandbox quality`). `data.changes` holds each ' +
      'field that changed, before and after; `data.channel` is the channel as channels/list shows it now.',
    data: z.object({
      channelId: idSchema,
      channel: channelSchema,
      changes: z
        .object({
          quality: change(z.string()).optional(),
          messagingLimit: change(z.string().nullable()).optional(),
        })
        .describe('The fields that changed: `quality`, `messagingLimit`, each `{previous, current}`'),
    }),
    example: {
      timestamp: EXAMPLE_TIME,
      data: {
        channelId: EXAMPLE_IDS.channelId,
        channel: {
          id: EXAMPLE_IDS.channelId,
          name: 'Support',
          phone: '15550001111',
          status: 'active',
          quality: 'yellow',
          messagingLimit: 'TIER_1K',
          createdAt: '2026-01-02T10:00:00.000Z',
        },
        changes: {
          quality: { previous: 'green', current: 'yellow' },
          messagingLimit: { previous: 'TIER_10K', current: 'TIER_1K' },
        },
      },
    },
  },
});

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

/** The body of one event type, as delivered. */
export type WebhookEventOf<T extends WebhookEventType> = z.output<(typeof WEBHOOK_EVENTS)[T]['schema']>;
/** Any delivery body: narrows on `type` (`event.data.ticket` after `event.type === 'ticket.closed'`). */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];

/** Any delivery body, checked: the union of every event's schema, told apart by `type`. */
export const webhookEventSchema = z.discriminatedUnion(
  'type',
  Object.values(WEBHOOK_EVENTS).map((event) => event.schema) as unknown as [
    (typeof WEBHOOK_EVENTS)[WebhookEventType]['schema'],
    ...(typeof WEBHOOK_EVENTS)[WebhookEventType]['schema'][],
  ],
) as unknown as z.ZodType<WebhookEvent>;

/** The Standard Webhooks headers every delivery carries (https://www.standardwebhooks.com/). */
export const WEBHOOK_HEADERS = {
  'webhook-id':
    'The delivery’s id (`msg_…`), the same on every retry and redelivery: drop a repeat you already handled',
  'webhook-timestamp': 'Unix seconds of this attempt: refuse one far from your clock (replays)',
  'webhook-signature':
    'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>` with the ' +
    'endpoint’s secret; two during a secret rotation: accept when any one verifies',
} as const;
