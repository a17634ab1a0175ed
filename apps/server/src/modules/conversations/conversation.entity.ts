import { defineEntity, p } from '@mikro-orm/core';
import { CONVERSATION_STATUSES } from '@switchboard/contract';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import { User } from '../users/index.js';
import { Message } from '../messages/index.js';

/**
 * One row per channel + contact with messages (chat/conversations/list). Its messages columns are written only by
 * the triggers on `messages` (migration ..._conversations), in the transaction that records a message or changes its
 * status; its lifecycle (status, snooze, assignee) by this module (conversation-lifecycle.service.ts).
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
    status: p.enum(CONVERSATION_STATUSES).default('open'),
    /** When a snoozed conversation opens again (the snooze worker, within seconds). */
    snoozedUntil: p.datetime().nullable(),
    assignee: () => p.manyToOne(User).nullable().deleteRule('set null').index('conversations_assignee_id_index'),
    resolvedAt: p.datetime().nullable(),
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
      name: 'conversations_channel_status_index',
      expression:
        'create index "conversations_channel_status_index" on "conversations" ' +
        '("channel_id", "status", "last_activity_at" desc, "contact_id" desc)',
    },
    {
      name: 'conversations_channel_assignee_index',
      expression:
        'create index "conversations_channel_assignee_index" on "conversations" ' +
        '("channel_id", "assignee_id", "last_activity_at" desc, "contact_id" desc)',
    },
    {
      name: 'conversations_snoozed_index',
      expression:
        'create index "conversations_snoozed_index" on "conversations" ("snoozed_until") where status = \'snoozed\'',
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
