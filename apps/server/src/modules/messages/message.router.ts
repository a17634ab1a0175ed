import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { markMessageRead } from './message-read.service.js';
import { MESSAGE_SENDS } from './message-sends.port.js';
import { findMessageStatus } from './message.service.js';
import { MESSAGING } from './messaging.js';

export function messagesRouter({ em, logger, services }: RouteDeps) {
  const providers = services.get(MESSAGING);
  const sends = services.get(MESSAGE_SENDS);
  return {
    status: implement<typeof contract.workspace.chat.message.status>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await findMessageStatus(ctx, msgid),
    })),
    cancel: implement<typeof contract.workspace.chat.message.cancel>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await sends.cancel(ctx, msgid),
      message: 'Scheduled message cancelled',
    })),
    send: implement<typeof contract.workspace.chat.message.send>(em, logger, async ({ channelId, ...send }, ctx) => {
      const channel = await resolveChannel(ctx, channelId);
      const data = await sends.send(ctx, { ...send, channelId: channel.id });
      return { success: true, data, message: 'Message queued' };
    }),
    read: implement<typeof contract.workspace.chat.message.read>(em, logger, async ({ msgid, typing }, ctx) => ({
      success: true,
      data: await markMessageRead(ctx, providers, msgid, { typing }),
    })),
  };
}
