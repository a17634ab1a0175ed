// Answer customers: every conversation with unread messages gets a reply, quoting the customer's last message, and
// is marked read. Outside WhatsApp's 24-hour window a free-form reply is refused: send a template instead.
// `pnpm answer-conversation`.
import { sb } from './env.js';

for await (const conversation of sb.workspace.chat.conversations.list.all({ unread: true })) {
  const { lastMessage } = conversation;
  if (lastMessage.direction !== 'inbound') continue;
  try {
    const { data: sent } = await sb.workspace.chat.message.send({
      contactId: conversation.contactId,
      text: `Hi ${conversation.name}, thanks for your message: we are on it.`,
      replyTo: lastMessage.msgid,
    });
    await sb.workspace.chat.message.read({ msgid: lastMessage.msgid });
    console.log(`answered ${conversation.name} (${sent.msgid})`);
  } catch (error) {
    // The guard narrows `error.code` to chat/message/send's codes.
    if (!sb.workspace.chat.message.send.isError(error) || error.code !== 'session_window_closed') throw error;
    await sb.workspace.chat.templates.send({ to: conversation.phone, templateName: 'order_update' });
    console.log(`window closed for ${conversation.name}: sent the order_update template`);
  }
}
