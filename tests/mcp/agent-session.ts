import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

interface Conversation {
  contactId: string;
  phone: string;
  name: string;
  status: string;
  windowExpiresAt: string | null;
}
interface Message {
  msgid: string;
  direction: 'inbound' | 'outbound';
  text: string | null;
  createdAt: string;
}

/** What an agent did, call by call, as a person reads it: the closing note of issue 42 shows one. */
export class Transcript {
  readonly lines: string[] = [];
  note(text: string) {
    this.lines.push(`# ${text}`);
  }
  call(name: string, args: Record<string, unknown>, result: CallToolResult) {
    this.lines.push(`→ tools/call ${name} ${JSON.stringify(args)}`);
    const text = JSON.stringify(JSON.parse((result.content[0] as { text: string }).text));
    const shown = text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text;
    this.lines.push(`← ${result.isError ? 'isError ' : ''}${shown}`);
  }
  toString() {
    return this.lines.join('\n');
  }
}

/**
 * A scripted agent working the demo workspace as a model would through the tools: find Ada's conversation in the
 * Support inbox, read it and the team's notes, reply inside her 24-hour window, leave a note, resolve it.
 */
export async function answerAda(client: Client, transcript: Transcript) {
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    transcript.call(name, args, result);
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as T;
  };
  transcript.note('Which channel is the support inbox?');
  const channels = await call<{ data: { id: string; name: string }[] }>('channels_list', {});
  const channelId = channels.data.find((channel) => channel.name === 'Support')!.id;
  transcript.note('Find Ada among the open conversations');
  const inbox = await call<{ data: Conversation[] }>('chat_conversations_list', { channelId, status: 'open' });
  const ada = inbox.data.find((conversation) => conversation.name.startsWith('Ada'))!;
  transcript.note('Read her conversation and the team’s notes');
  const history = await call<{ data: Message[] }>('chat_messages_list', { channelId, phone: ada.phone, limit: 5 });
  const question = history.data.find((message) => message.direction === 'inbound' && message.text)!;
  await call('chat_notes_list', { channelId, phone: ada.phone });
  const prompt = await client.getPrompt({ name: 'answer_conversation', arguments: { channelId, phone: ada.phone } });
  const promptText = (prompt.messages[0]!.content as { text: string }).text;
  transcript.note(`prompts/get answer_conversation: ${promptText.split('\n')[0]} (${promptText.length} characters)`);
  transcript.note(`Her window is open until ${ada.windowExpiresAt}: a free-form reply is allowed`);
  const sent = await call<{ data: { msgid: string } }>('chat_message_send', {
    channelId,
    to: ada.phone,
    text: 'Hi Ada, order A-1001 left our warehouse this morning and arrives tomorrow. Sorry about the dented box!',
    replyTo: question.msgid,
  });
  await call('chat_notes_manage', {
    channelId,
    action: 'create',
    phone: ada.phone,
    text: 'Told Ada that A-1001 arrives tomorrow; she sent a photo of a dented box: check it on delivery.',
  });
  await call('chat_conversations_manage', { channelId, phone: ada.phone, status: 'resolved' });
  return { channelId, phone: ada.phone, question, msgid: sent.data.msgid };
}
