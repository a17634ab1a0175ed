import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import { Message } from '../messages/index.js';

/**
 * One row per channel + contact with messages (chat/conversations/list). Written only by the triggers on `messages`
 * (migration ..._conversations), in the transaction that records a message or changes its status.
 */
const ConversationSchema = defineEntity({
  name: 'Conversation',
  tableName: 'conversations',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    contact: () => p.manyToOne(Contact).deleteRule('cascade').index('conversations_contact_id_index'),
    /** The newest message by the listing order (createdAt, then id). */
    lastMessage: () =>
      p.manyToOne(Message).nullable().deleteRule('set null').index('conversations_last_message_id_index'),
    lastActivityAt: p.datetime(),
    /** When the contact last wrote (Meta's timestamp): the 24-hour window runs from here. */
    lastInboundAt: p.datetime().nullable(),
    /** The contact's inbound messages not yet read. */
    unreadCount: p.integer().default(0),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  uniques: [{ name: 'conversations_channel_id_contact_id_unique', properties: ['channel', 'contact'] }],
  indexes: [
    {
      name: 'conversations_channel_recent_index',
      expression:
        'create index "conversations_channel_recent_index" on "conversations" ' +
        '("channel_id", "last_activity_at" desc, "contact_id" desc)',
    },
    {
      name: 'conversations_channel_unread_index',
      expression:
        'create index "conversations_channel_unread_index" on "conversations" ' +
        '("channel_id", "last_activity_at" desc, "contact_id" desc) where unread_count > 0',
    },
  ],
});
export class Conversation extends ConversationSchema.class {}
ConversationSchema.setClass(Conversation);
