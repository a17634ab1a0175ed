import { defineEntity, p } from '@mikro-orm/core';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES, MESSAGE_TYPES } from '@switchboard/contract';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';

const MessageSchema = defineEntity({
  name: 'Message',
  tableName: 'messages',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    /** The provider's message id (e.g. `wamid.…`); looked up across channels, so unique on its own. */
    msgid: p.string().length(200).unique(),
    direction: p.enum(MESSAGE_DIRECTIONS),
    type: p.enum(MESSAGE_TYPES),
    status: p.enum(MESSAGE_STATUSES),
    /** The recipient's phone digits of an outbound message; null for an inbound one. */
    to: p.string().length(20).nullable(),
    /** The sender's phone digits (WhatsApp `wa_id`) of an inbound message; null for an outbound one. */
    from: p.string().length(20).nullable(),
    /** The channel's contact who sent an inbound message. */
    contact: () => p.manyToOne(Contact).nullable().deleteRule('set null'),
    /** The text of an inbound text message. */
    body: p.text().nullable(),
    templateName: p.string().length(200).nullable(),
    language: p.string().length(20).nullable(),
    variables: p.json<string[]>().nullable(),
    provider: p.string().length(40).default('sandbox'),
    /** Why the provider reports the message failed; set only while `status` is `failed`. */
    errorCode: p.integer().nullable(),
    errorTitle: p.string().length(500).nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  indexes: [
    { name: 'messages_channel_created_index', columns: [{ name: 'channel_id' }, { name: 'created_at', sort: 'DESC' }] },
    // Deleting a contact clears its messages' contact_id: without this index that is a scan of every message.
    { name: 'messages_contact_id_index', properties: ['contact'] },
  ],
});
export class Message extends MessageSchema.class {}
MessageSchema.setClass(Message);
