import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { ConversationCount } from './conversation-count.entity.js';
import { Conversation } from './conversation.entity.js';
import { Message } from './message.entity.js';
import { SendDispatcher, SendPace } from './send-pace.entity.js';
import { conversationsRouter, messagesHistoryRouter } from './conversation.router.js';
import { messagesRouter } from './message.router.js';
import { mediaLinksService } from './media-links.js';
import { mediaLinkRoutes, mediaRouter } from './media.router.js';
import { messagesSeed } from './message.seed.js';
import { MESSAGING, messagingService } from './messaging.js';
import { sendDispatcher } from './outbox-dispatcher.js';

export { wroteBefore } from './inbound-history.js';
export { applyStatusUpdate, recordInboundMessage } from './message.service.js';
export type {
  MediaContent,
  MediaFile,
  MessagingProvider,
  OutboundSessionMessage,
  OutboundTemplateMessage,
  TemplateSyncResult,
} from './messaging-provider.port.js';
export { requireProvider, statusSink, type MessagingProviders } from './messaging-providers.js';
export { recordOutbound } from './outbound-record.js';
export { cancelQueuedSends, queueBulkSends, queueSend, type BulkSends, type QueuedSend } from './outbox.js';
export { receiveSandboxMessage, type SandboxInbound } from './sandbox-inbound.js';
export { sendSessionMessage, type SendContext, type SessionMessageInput } from './session-message.service.js';
export { MESSAGING } from './messaging.js';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

export const messagesModule = defineModule({
  name: 'messages',
  entities: [Message, Conversation, ConversationCount, SendPace, SendDispatcher],
  routes: [
    routes(contract.workspace.chat.message, messagesRouter),
    routes(contract.workspace.chat.messages, messagesHistoryRouter),
    routes(contract.workspace.chat.conversations, conversationsRouter),
    routes(contract.workspace.chat.media, mediaRouter),
  ],
  publicRoutes: mediaLinkRoutes,
  seed: [messagesSeed],
  services: [messagingService, mediaLinksService],
  jobs: ({ config, services }) => ({
    targets: [],
    workers: [sendDispatcher({ ratePerSecond: config.SEND_RATE_PER_CHANNEL, providers: () => services.get(MESSAGING) })],
    describe: { sendRatePerChannel: config.SEND_RATE_PER_CHANNEL },
  }),
  demo: {
    // Times relative to loading the demo: the customer's question is minutes old, so the 24-hour window is open
    // and the README's reply (chat/message/send) works on a fresh start.
    messages: [
      {
        channel: 'support',
        msgid: 'wamid.DEMO0001',
        to: '15550000001',
        status: 'delivered',
        direction: 'outbound',
        type: 'text',
        text: 'Hi Ada, thanks for your order A-1001!',
        createdAt: minutesAgo(120),
      },
      // A photo the customer sent before the question, read already: chat/media/get's example (a sandbox placeholder).
      {
        channel: 'support',
        msgid: 'wamid.DEMO0003',
        from: '15550000001',
        direction: 'inbound',
        type: 'image',
        status: 'read',
        text: 'The box arrived dented',
        media: { mediaId: 'demo-media-0001', mimeType: 'image/png', caption: 'The box arrived dented' },
        createdAt: minutesAgo(6),
      },
      {
        channel: 'support',
        msgid: 'wamid.DEMO0002',
        from: '15550000001',
        direction: 'inbound',
        text: 'Hi! Where is my order A-1001?',
        createdAt: minutesAgo(5),
      },
    ],
  },
});
