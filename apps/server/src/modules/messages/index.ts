import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Message } from './message.entity.js';
import { messagesRouter } from './message.router.js';
import { messagesSeed } from './message.seed.js';
import { messagingService } from './messaging.js';

export { wroteBefore } from './inbound-history.js';
export { Message } from './message.entity.js';
export { MESSAGE_SENDS, type MessageSends } from './message-sends.port.js';
export { findAccessibleMessage, msgidOfProviderId, recordInboundMessage } from './message.service.js';
export type {
  DeliveryStatus,
  MediaContent,
  MediaFile,
  MessagingProvider,
  OutboundSessionMessage,
  OutboundTemplateButton,
  OutboundTemplateMessage,
  ReadOptions,
  OutboundTemplateParts,
  ProviderTemplateRef,
  StatusSink,
  StatusUpdate,
  SubmittedTemplate,
  TemplateDraft,
  TemplateDraftButton,
  TemplateDraftHeader,
  TemplateSyncResult,
} from './messaging-provider.port.js';
export { ProviderCallError, SendNotMadeError, type ProviderFailure } from './messaging-provider.port.js';
export { requireProvider, type MessagingProviders } from './messaging-providers.js';
export { MESSAGING } from './messaging.js';
export { movedTo, writeStatuses, type StatusChange, type StatusMoves } from './status-writer.js';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/**
 * Messages: the record every send and receipt leaves (one message by its msgid: chat/message/status and read, the
 * inbound record, the one writer of statuses and the events it queues), and the port providers implement (the
 * modules carrying channels, sandbox and whatsapp, register theirs). chat/message/send and cancel are the send
 * pipeline's, through MESSAGE_SENDS. Sending, conversations, their history and files build on it.
 */
export const messagesModule = defineModule({
  name: 'messages',
  entities: [Message],
  routes: [routes(contract.workspace.chat.message, messagesRouter)],
  seed: [messagesSeed],
  services: [messagingService],
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
      // Grace's thanks: a conversation the demo resolved, with a note (conversations and notes demo).
      {
        channel: 'support',
        msgid: 'wamid.DEMO0004',
        from: '15550000002',
        direction: 'inbound',
        status: 'read',
        text: 'The replacement arrived, thank you!',
        createdAt: minutesAgo(90),
      },
    ],
  },
});
