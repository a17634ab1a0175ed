import { provide } from '../../kit/services.js';
import { MESSAGE_SENDS, type MessageSends } from '../messages/index.js';
import { cancelScheduledMessage } from './outbox.js';
import { SEND_NOW } from './send-now.js';
import { sendSessionMessage } from './session-send.service.js';
import { SESSION_WINDOWS } from './session-window.port.js';

/** chat/message/send (queued, handed over at once when the channel has budget) and cancel, for messages' router. */
export const messageSendsService = provide({
  key: MESSAGE_SENDS,
  start: ({ services }): MessageSends => ({
    send: (ctx, input) =>
      sendSessionMessage({ ...ctx, windows: services.get(SESSION_WINDOWS), sendNow: services.get(SEND_NOW) }, input),
    cancel: (ctx, msgid) => cancelScheduledMessage(ctx, msgid),
  }),
});
