import { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { manageConversation } from './conversation-lifecycle.service.js';
import { conversationContact, listConversations, listMessages } from './conversation.service.js';

export function messagesHistoryRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.chat.messages.list>(
      em,
      logger,
      async ({ channelId, contactId, phone, ...query }, ctx) => {
        const channel = await resolveChannel(ctx, channelId);
        const conversation = await conversationContact(ctx, channel, { contactId, phone });
        return { success: true, ...(await listMessages(ctx, channel.id, { ...query, contactId: conversation })) };
      },
    ),
  };
}

export function conversationsRouter({ em, logger }: RouteDeps) {
  return {
    list: implement<typeof contract.workspace.chat.conversations.list>(
      em,
      logger,
      async ({ channelId, ...query }, ctx) => {
        const channel = await resolveChannel(ctx, channelId);
        return { success: true, ...(await listConversations(ctx, channel.id, query)) };
      },
    ),
    manage: implement<typeof contract.workspace.chat.conversations.manage>(em, logger, async (params, ctx) => {
      const channel = await resolveChannel(ctx, params.channelId);
      return { success: true, data: await manageConversation(ctx, channel, params) };
    }),
  };
}
