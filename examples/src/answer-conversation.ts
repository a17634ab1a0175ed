// Answer customers: in every channel, each conversation with unread messages gets a reply quoting the customer's
// last message, and is marked read. Outside WhatsApp's 24-hour window a free-form reply is refused: the error says
// when the window closed, and a template (chat/templates/send) is the way to reach the customer.
// `pnpm answer-conversation`.
import { sb } from './env.js';

const { data: channels } = await sb.workspace.channels.list();
for (const channel of channels) {
  const channelId = channel.id;
  for await (const conversation of sb.workspace.chat.conversations.list.all({ channelId, unread: true })) {
    const { lastMessage } = conversation;
    if (lastMessage.direction !== 'inbound') continue;
    try {
      const { data: sent } = await sb.workspace.chat.message.send({
        channelId,
        contactId: conversation.contactId,
        text: `Hi ${conversation.name}, thanks for your message: we are on it.`,
        replyTo: lastMessage.msgid,
      });
      await sb.workspace.chat.message.read({ msgid: lastMessage.msgid });
      console.log(`${channel.name}: answered ${conversation.name} (${sent.msgid})`);
    } catch (error) {
      // The guard narrows `error.code` to chat/message/send's codes.
      if (!sb.workspace.chat.message.send.isError(error) || error.code !== 'session_window_closed') throw error;
      console.log(`${channel.name}: ${conversation.name} needs a template: ${error.message}`);
    }
  }
}
