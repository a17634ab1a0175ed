import { contract } from '@switchboard/contract';
import { implement } from '../../http/handler.js';
import type { RouteDeps } from '../../http/register.js';
import { findMessageStatus } from './message.service.js';

export function messagesRouter({ em, logger }: RouteDeps) {
  return {
    status: implement<typeof contract.workspace.chat.message.status>(em, logger, async ({ msgid }, ctx) => ({
      success: true,
      data: await findMessageStatus(ctx, msgid),
    })),
  };
}
