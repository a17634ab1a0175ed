import { provide } from '../../kit/services.js';
import { SESSION_WINDOWS, type SessionWindows } from '../sending/index.js';
import { Conversation } from './conversation.entity.js';

/** chat/message/send's window check: the conversation row's `lastInboundAt`, which the messages triggers keep. */
const sessionWindows: SessionWindows = {
  async lastInboundAt(em, channelId, contactId) {
    const conversation = await em.findOne(
      Conversation,
      { channel: channelId, contact: contactId },
      { fields: ['lastInboundAt'] },
    );
    return conversation?.lastInboundAt ?? null;
  },
};

export const sessionWindowsService = provide({ key: SESSION_WINDOWS, start: () => sessionWindows });
