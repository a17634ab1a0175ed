import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { findMessageStatus, markMessageRead, MESSAGING } from '../messages/index.js';
import { cancelScheduledMessage } from './outbox.js';
import { SEND_NOW } from './send-now.js';
import { sendSessionMessage } from './session-send.service.js';
import { SESSION_WINDOWS } from './session-window.port.js';

/**
 * chat/message/*: one contract group, implemented here because sending sits above messages (status and read are
 * the record's, send and cancel the pipeline's).
 */
export function messagesRouter({ em, logger, jobs, services }: RouteDeps) {
  const providers = services.get(MESSAGING);
  const windows = services.get(SESSION_WINDOWS);
  const sendNow = services.get(SEND_NOW);
  return {
    status: implement<typeof contract.workspace.chat.message.status>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await findMessageStatus(ctx, msgid),
    })),
    cancel: implement<typeof contract.workspace.chat.message.cancel>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await cancelScheduledMessage(ctx, jobs, msgid),
      message: 'Scheduled message cancelled',
    })),
    send: implement<typeof contract.workspace.chat.message.send>(em, logger, async ({ channelId, ...send }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const data = await sendSessionMessage({ ...ctx, windows, sendNow }, { ...send, channelId: channel.id });
      return { success: true, data, message: 'Message queued' };
    }),
    read: implement<typeof contract.workspace.chat.message.read>(em, logger, async ({ msgid, typing }, ctx) => ({
      success: true,
      data: await markMessageRead(ctx, jobs, providers, msgid, { typing }),
    })),
  };
}
