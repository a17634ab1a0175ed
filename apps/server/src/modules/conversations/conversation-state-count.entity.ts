import { defineEntity, p } from '@mikro-orm/core';
import { CONVERSATION_STATUSES } from '@switchboard/contract';
import { Channel } from '../channels/index.js';

/**
 * How many conversations each channel has per status and assignee (and how many of them have unread messages),
 * kept exact by triggers on `conversations` (conversation.sql.ts): the filtered inbox's
 * `total` is a sum over a few of these rows. Never written by the application.
 */
const ConversationStateCountSchema = defineEntity({
  name: 'ConversationStateCount',
  tableName: 'conversation_state_counts',
  properties: {
    channel: () => p.manyToOne(Channel).primary().deleteRule('cascade').updateRule('no action'),
    status: p.enum(CONVERSATION_STATUSES).primary(),
    assigneeKey: p.uuid().primary(),
    total: p.integer().default(0),
    unread: p.integer().default(0),
  },
});
export class ConversationStateCount extends ConversationStateCountSchema.class {}
ConversationStateCountSchema.setClass(ConversationStateCount);
