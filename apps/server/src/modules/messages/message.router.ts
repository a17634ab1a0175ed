import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { findMessageStatus } from './message.service.js';

export function messagesRouter({ em, logger }: RouteDeps) {
  return {
    status: implement<typeof contract.workspace.chat.message.status>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await findMessageStatus(ctx, msgid),
    })),
  };
}
