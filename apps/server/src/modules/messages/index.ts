import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Conversation } from './conversation.entity.js';
import { Message } from './message.entity.js';
import { messagesRouter } from './message.router.js';
import { mediaLinksService } from './media-links.js';
import { mediaLinkRoutes, mediaRouter } from './media.router.js';
import { messagesSeed } from './message.seed.js';
import { messagingService } from './messaging.js';

export { applyStatusUpdate, recordInboundMessage, recordOutboundTemplate } from './message.service.js';
export type {
  MediaContent,
  MediaFile,
  MessagingProvider,
  OutboundTemplateMessage,
  TemplateSyncResult,
} from './messaging-provider.port.js';
export { statusSink, type MessagingProviders } from './messaging-providers.js';
export { MESSAGING } from './messaging.js';

export const messagesModule = defineModule({
  name: 'messages',
  entities: [Message, Conversation],
  routes: [routes(contract.workspace.chat.message, messagesRouter), routes(contract.workspace.chat.media, mediaRouter)],
  publicRoutes: mediaLinkRoutes,
  seed: [messagesSeed],
  services: [messagingService, mediaLinksService],
  demo: {
    messages: [
      {
        channel: 'support',
        msgid: 'wamid.DEMO0001',
        to: '15550000001',
        status: 'delivered',
        direction: 'outbound',
        type: 'text',
      },
    ],
  },
});
