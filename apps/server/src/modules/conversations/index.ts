import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { ConversationCount } from './conversation-count.entity.js';
import { Conversation } from './conversation.entity.js';
import { conversationsSeed } from './conversation.seed.js';
import { ConversationStateCount } from './conversation-state-count.entity.js';
import { snoozeWorker } from './snooze-worker.js';
import { conversationsRouter, messagesHistoryRouter } from './conversation.router.js';
import { sessionWindowsService } from './session-window.provider.js';

export { recordCustomerMessage } from './conversation-lifecycle.service.js';
export { conversationContact } from './conversation.service.js';

/**
 * Conversations: one row per channel and contact with messages, with its counters, kept by triggers on `messages`;
 * the inbox (chat/conversations/list), a conversation's history (chat/messages/list) and the 24-hour window
 * chat/message/send checks. The files its customers sent are the media module's.
 */
export const conversationsModule = defineModule({
  name: 'conversations',
  entities: [Conversation, ConversationCount, ConversationStateCount],
  routes: [
    routes(contract.workspace.chat.messages, messagesHistoryRouter),
    routes(contract.workspace.chat.conversations, conversationsRouter),
  ],
  seed: [conversationsSeed],
  // Ada's question is open and the demo owner's; Grace's thanks closed hers.
  demo: {
    conversations: [
      { channel: 'support', phone: '15550000001', status: 'open', assignee: 'owner' },
      { channel: 'support', phone: '15550000002', status: 'resolved' },
    ],
  },
  services: [sessionWindowsService],
  // The inbox runs prepared statements too (kit executePrepared): planned once per connection, without JIT.
  sessionSettings: { plan_cache_mode: 'force_generic_plan', jit: 'off' },
  jobs: () => ({ targets: [], workers: [snoozeWorker] }),
});
