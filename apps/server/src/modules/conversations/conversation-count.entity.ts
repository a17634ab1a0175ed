import { defineEntity, p } from '@mikro-orm/core';
import { Channel } from '../channels/index.js';

/**
 * How many conversations each channel has, and how many of them have unread messages, kept exact by triggers on
 * `conversations` (conversation.sql.ts): the inbox's `total` without counting the channel's
 * conversations per request. Never written by the application.
 */
const ConversationCountSchema = defineEntity({
  name: 'ConversationCount',
  tableName: 'channel_conversation_counts',
  properties: {
    channel: () => p.manyToOne(Channel).primary().deleteRule('cascade').updateRule('no action'),
    total: p.integer().default(0),
    unread: p.integer().default(0),
  },
});
export class ConversationCount extends ConversationCountSchema.class {}
ConversationCountSchema.setClass(ConversationCount);
