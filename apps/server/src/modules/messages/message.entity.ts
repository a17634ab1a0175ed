import { defineEntity, p } from '@mikro-orm/core';
import {
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  type Interactive,
  type InteractiveReply,
  type Location,
  type MessageMedia,
  type Reaction,
} from '@switchboard/contract';
import { createdAtColumn, timeOrderedUuidPrimaryKey, updatedAtColumn } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import type { OutboundTemplateParts } from './messaging-provider.port.js';

const MessageSchema = defineEntity({
  name: 'Message',
  tableName: 'messages',
  properties: {
    /** Time-ordered (kit/columns.ts): a broadcast's sends are written in bulk. */
    id: timeOrderedUuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    /**
     * The message's id in the API, looked up across channels, so unique on its own: the provider's id (e.g.
     * `wamid.…`) for an inbound message; generated when queued for an outbound one (a scheduled message keeps the
     * msgid it was given), and changed only once, to the provider's id, for an API send accepted in its request
     * (what its caller was answered).
     */
    msgid: p.string().length(200).unique(),
    /** The provider's id once it accepted the message: what its status reports name. */
    providerMessageId: p.string().length(200).nullable(),
    direction: p.enum(MESSAGE_DIRECTIONS),
    type: p.enum(MESSAGE_TYPES),
    status: p.enum(MESSAGE_STATUSES),
    /** The recipient's phone digits of an outbound message; null for an inbound one. */
    to: p.string().length(20).nullable(),
    /** The sender's phone digits (WhatsApp `wa_id`) of an inbound message; null for an outbound one. */
    from: p.string().length(20).nullable(),
    /** The channel's contact the conversation is with (sender of an inbound message, recipient of an outbound one). */
    contact: () => p.manyToOne(Contact).nullable().deleteRule('set null'),
    /** The message's text: a text's body or a media caption (or a readable form of other inbound types). */
    body: p.text().nullable(),
    /** An outbound text's link preview, kept for the send pipeline's provider call. */
    previewUrl: p.boolean().default(false),
    /** Meta's media id (inbound) or the link Meta fetches (outbound), with what is known of the file. */
    media: p.json<MessageMedia>().nullable(),
    /** The msgid this message quotes (a reply), or whose button or list row a customer tapped. */
    replyTo: p.string().length(200).nullable(),
    /** An interactive message as sent (buttons, list, link button), or a customer's tap on one (with its ids). */
    interactive: p.json<Interactive | InteractiveReply>().nullable(),
    /** A reaction: the msgid reacted to, and the emoji (null: removed). */
    reaction: p.json<Reaction>().nullable(),
    location: p.json<Location>().nullable(),
    /**
     * The automation that sent it. A plain id, not a relation: the automations module builds on this one, so this
     * one cannot name its entity; an automation's removal leaves the id as a record of what sent the message.
     */
    automationId: p.uuid().nullable(),
    /** The broadcast that sent it. A plain id for the same reason as `automationId`. */
    broadcastId: p.uuid().nullable(),
    /**
     * When the send pipeline may send it (queued, scheduled); null for messages outside the pipeline, and for a
     * paused broadcast's queued sends (held: never due until it resumes).
     */
    dueAt: p.datetime().nullable(),
    /** Provider calls that ended throttled (the provider asked to slow down): the send is retried a few times. */
    attempts: p.integer().default(0),
    /**
     * The pipeline's reason for `failed` (`outcome_unknown`) or `cancelled` (`cancelled`, `contact_unsubscribed`,
     * `contact_blocked`); null otherwise.
     */
    reason: p.string().length(40).nullable(),
    /**
     * The dispatcher (`send_dispatchers`) that reserved it for its provider call: while still queued or scheduled,
     * until its slot's hand-over, then while `sending`.
     */
    sendingBy: p.uuid().nullable(),
    /** The send needs the contact's consent at its turn (a MARKETING template, a broadcast's): checked at hand-over. */
    needsConsent: p.boolean().default(false),
    templateName: p.string().length(200).nullable(),
    language: p.string().length(20).nullable(),
    variables: p.json<string[]>().nullable(),
    /** A template send's header and button values, checked against the template when queued. */
    templateParts: p.json<OutboundTemplateParts>().nullable(),
    provider: p.string().length(40).default('sandbox'),
    /** Why the provider reports the message failed; set only while `status` is `failed`. */
    errorCode: p.integer().nullable(),
    errorTitle: p.string().length(500).nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  indexes: [
    // Listing orders (chat/messages/list), newest first: a channel's messages and one conversation's. Written as
    // statements because MikroORM 7.2.1 reads the sort of `id` back wrong (see contacts_channel_recent_index).
    {
      name: 'messages_channel_recent_index',
      expression:
        'create index "messages_channel_recent_index" on "messages" ("channel_id", "created_at" desc, "id" desc)',
    },
    {
      name: 'messages_conversation_index',
      expression:
        'create index "messages_conversation_index" on "messages" ' +
        '("channel_id", "contact_id", "created_at" desc, "id" desc)',
    },
    {
      name: 'messages_provider_message_id_unique',
      expression:
        'create unique index "messages_provider_message_id_unique" on "messages" ("provider_message_id") ' +
        'where "provider_message_id" is not null',
    },
    // The send pipeline's queue: what each channel has waiting, in due order; small, as rows leave it once claimed.
    {
      name: 'messages_outbox_index',
      expression:
        'create index "messages_outbox_index" on "messages" ("channel_id", "due_at") ' +
        "where \"status\" in ('queued', 'scheduled', 'sending')",
    },
    // The sends a dispatcher holds (reserved or in a provider call): what a dead or stopping one leaves is found
    // without reading the outbox.
    {
      name: 'messages_held_index',
      expression: 'create index "messages_held_index" on "messages" ("sending_by") where "sending_by" is not null',
    },
    {
      name: 'messages_broadcast_index',
      expression:
        'create index "messages_broadcast_index" on "messages" ("broadcast_id", "status") ' +
        'where "broadcast_id" is not null',
    },
    // Deleting a contact clears its messages' contact_id: without this index that is a scan of every message.
    { name: 'messages_contact_id_index', properties: ['contact'] },
  ],
});
export class Message extends MessageSchema.class {}
MessageSchema.setClass(Message);
