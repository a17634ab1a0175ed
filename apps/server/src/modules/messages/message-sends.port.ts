import type { MessageCancelResult, SessionSendParams, SessionSendResult } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { serviceKey } from '../../kit/services.js';

/**
 * chat/message/send and chat/message/cancel, which the send pipeline answers: the sending module sits above messages
 * (it builds on the record), so it provides this port and the messages router calls it. `channelId`: resolved and
 * authorized already.
 */
export interface MessageSends {
  send(
    ctx: CallerContext,
    input: Omit<SessionSendParams, 'channelId'> & { channelId: string },
  ): Promise<SessionSendResult>;
  cancel(ctx: CallerContext, msgid: string): Promise<MessageCancelResult>;
}

export const MESSAGE_SENDS = serviceKey<MessageSends>('messages.sends');
