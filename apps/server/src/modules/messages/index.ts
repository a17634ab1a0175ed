import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Message } from './message.entity.js';
import { SendDispatcher, SendPace } from './send-pace.entity.js';
import { messagesRouter } from './message.router.js';
import { messagesSeed } from './message.seed.js';
import { MESSAGING, messagingService } from './messaging.js';
import { BROADCAST_STOPS } from './broadcast-stops.port.js';
import { sendDispatcher } from './outbox-dispatcher.js';

export { wroteBefore } from './inbound-history.js';
export { Message } from './message.entity.js';
export { sendSessionMessage, type SessionMessageInput } from './message-send.service.js';
export { findAccessibleMessage, msgidOfProviderId, recordInboundMessage } from './message.service.js';
export { applyStatusUpdate } from './message-status.service.js';
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
  SubmittedTemplate,
  TemplateDraft,
  TemplateDraftButton,
  TemplateDraftHeader,
  TemplateSyncResult,
} from './messaging-provider.port.js';
export { ProviderCallError, SendNotMadeError, type ProviderFailure } from './messaging-provider.port.js';
export { requireProvider, type MessagingProviders } from './messaging-providers.js';
export { statusSink } from './status-sink.js';
export {
  cancelQueuedSends,
  hasQueuedSends,
  holdQueuedSends,
  queueBulkSends,
  queueSend,
  releaseHeldSends,
} from './outbox.js';
export { BROADCAST_STOPS, type BroadcastStops } from './broadcast-stops.port.js';
export { MESSAGING } from './messaging.js';
export { recordOutbound } from './outbound-record.js';
export { SESSION_WINDOWS, type SessionWindows } from './session-window.port.js';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/**
 * Messages: one message by its msgid (chat/message/status, read), sending a session message (chat/message/send),
 * the record every send and receipt leaves, and the port providers implement (the modules carrying channels,
 * sandbox and whatsapp, register theirs). Conversations, their history and files build on it.
 */
export const messagesModule = defineModule({
  name: 'messages',
  entities: [Message, SendPace, SendDispatcher],
  routes: [routes(contract.workspace.chat.message, messagesRouter)],
  seed: [messagesSeed],
  services: [messagingService],
  jobs: ({ config, services }) => ({
    targets: [],
    workers: [
      sendDispatcher({
        ratePerSecond: config.SEND_RATE_PER_CHANNEL,
        providers: () => services.get(MESSAGING),
        stops: () => services.get(BROADCAST_STOPS),
      }),
    ],
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
