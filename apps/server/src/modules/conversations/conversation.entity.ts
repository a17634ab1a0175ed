import { defineEntity, p } from '@mikro-orm/core';
import { CONVERSATION_STATUSES, type MessageInteractive } from '@switchboard/contract';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';
import { Contact } from '../contacts/index.js';
import { User } from '../users/index.js';
import { NO_ASSIGNEE } from './conversation.sql.js';

/**
 * The assignee indexes' key: the assignee, or NO_ASSIGNEE (as in conversation_state_counts), so an unassigned
 * conversation has a key to look up like any other (rows of `assignee_id is null` are not read in index order).
 */
export const ASSIGNEE_KEY = `coalesce("assignee_id", '${NO_ASSIGNEE}'::uuid)`;

/**
 * One row per channel + contact with messages (chat/conversations/list), carrying everything the inbox shows but
 * the assignee's name, so a page is read off one index of this table alone. Its messages and contact columns are
 * written only by triggers (conversation.sql.ts): on
 * `messages`, in the statement that records a message or takes it out of the outbox; on `contacts`, when a contact is
 * renamed. Its lifecycle (status, snooze, assignee) by this module (conversation-lifecycle.service.ts).
 */
const ConversationSchema = defineEntity({
  name: 'Conversation',
  tableName: 'conversations',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    contact: () => p.manyToOne(Contact).deleteRule('cascade').index('conversations_contact_id_index'),
    /** The contact's, copied (and kept when the contact changes). */
    contactPhone: p.string().length(20),
    contactName: p.string().length(200),
    /**
     * The newest message by the listing order (createdAt, then id): its id (the tie-break between messages of one
     * instant; no foreign key, see ..._conversation_inbox_row) and what the inbox shows of it, copied from it.
     */
    lastMessageId: p.uuid(),
    lastMessageMsgid: p.string().length(200),
    lastMessageDirection: p.text(),
    lastMessageType: p.text(),
    lastMessageText: p.text().nullable(),
    lastMessageInteractive: p.json<MessageInteractive>().nullable(),
    /** When the newest message was made: its createdAt. */
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
        `("channel_id", (${ASSIGNEE_KEY}), "last_activity_at" desc, "contact_id" desc)`,
    },
    {
      name: 'conversations_channel_assignee_status_index',
      expression:
        'create index "conversations_channel_assignee_status_index" on "conversations" ' +
        `("channel_id", (${ASSIGNEE_KEY}), "status", "last_activity_at" desc, "contact_id" desc)`,
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
