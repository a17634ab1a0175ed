import { defineModule } from '../../kit/module.js';
import { MESSAGING } from '../messages/index.js';
import { BROADCAST_STOPS } from './broadcast-stops.port.js';
import { messageSendsService } from './message-sends.provider.js';
import { sendDispatcher } from './outbox-dispatcher.js';
import { ParkedReport } from './parked-report.entity.js';
import { sendNowService } from './send-now.js';
import { SendDispatcher, SendPace } from './send-pace.entity.js';

export { BROADCAST_STOPS, type BroadcastStops } from './broadcast-stops.port.js';
export {
  cancelQueuedSends,
  hasQueuedSends,
  holdQueuedSends,
  queueBulkSends,
  queueSend,
  releaseHeldSends,
} from './outbox.js';
export { SEND_NOW, type SendNow } from './send-now.js';
export { sendSessionMessage, type SessionMessageInput } from './session-send.service.js';
export { SESSION_WINDOWS, type SessionWindows } from './session-window.port.js';
export { applyStatusUpdate } from './status-reports.js';
export { statusSink } from './status-sink.js';

/**
 * Sending: the one pipeline every outbound message takes (chat/message/send and chat/templates/send, scheduled
 * sends, broadcasts, automations): queued in its caller's transaction, handed over to the provider at the channel's
 * pace by the dispatcher (or at once in the API's request when the channel has budget now, by the same hand-over),
 * its outcome and the provider's reports written by messages' one status writer. It answers chat/message/send and
 * cancel through messages' MESSAGE_SENDS port.
 */
export const sendingModule = defineModule({
  name: 'sending',
  entities: [SendPace, SendDispatcher, ParkedReport],
  services: [sendNowService, messageSendsService],
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
});
