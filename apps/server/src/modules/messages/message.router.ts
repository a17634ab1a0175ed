import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { markMessageRead } from './message-read.service.js';
import { cancelScheduledMessage, findMessageStatus } from './message.service.js';
import { MESSAGING } from './messaging.js';
import { sendSessionMessage } from './session-message.service.js';

export function messagesRouter({ em, logger, services }: RouteDeps) {
  const providers = services.get(MESSAGING);
  return {
    status: implement<typeof contract.workspace.chat.message.status>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await findMessageStatus(ctx, msgid),
    })),
    cancel: implement<typeof contract.workspace.chat.message.cancel>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await cancelScheduledMessage(ctx, msgid),
      message: 'Scheduled message cancelled',
    })),
    send: implement<typeof contract.workspace.chat.message.send>(em, logger, async ({ channelId, ...send }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const data = await sendSessionMessage({ ...ctx, providers }, { ...send, channelId: channel.id });
      return { success: true, data, message: 'Message queued' };
    }),
    read: implement<typeof contract.workspace.chat.message.read>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await markMessageRead(ctx, providers, msgid),
    })),
  };
}
