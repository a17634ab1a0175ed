import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { markMessageRead } from './message-read.service.js';
import { sendSessionMessage } from './message-send.service.js';
import { cancelScheduledMessage, findMessageStatus } from './message.service.js';
import { MESSAGING } from './messaging.js';
import { SESSION_WINDOWS } from './session-window.port.js';

export function messagesRouter({ em, logger, jobs, services }: RouteDeps) {
  const providers = services.get(MESSAGING);
  const windows = services.get(SESSION_WINDOWS);
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
      const data = await sendSessionMessage({ ...ctx, providers, windows }, { ...send, channelId: channel.id });
      return { success: true, data, message: 'Message queued' };
    }),
    read: implement<typeof contract.workspace.chat.message.read>(em, logger, async ({ msgid, typing }, ctx) => ({
      success: true,
      data: await markMessageRead(ctx, jobs, providers, msgid, { typing }),
    })),
  };
}
