import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type GetPromptResult,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';
import { failureOf, resultOf, type CallApi } from './api-call.js';
import type { ToolSpec } from './catalogue.js';

type Tools = ReadonlyMap<string, ToolSpec>;
type Call = (tool: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** A prompt for a common job: it reads through the tools (with the caller's key) and hands the model what it read. */
interface PromptDefinition extends Prompt {
  /** The tools it reads with: the prompt is offered only where they are. */
  reads: readonly string[];
  build(args: Record<string, string>, call: Call, tools: Tools): Promise<string>;
}

const CHANNEL_ARGUMENT = {
  name: 'channelId',
  description: 'The channel (from channels_list); may be left out when the key has exactly one channel',
  required: false,
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

const answerConversation: PromptDefinition = {
  name: 'answer_conversation',
  title: 'Answer a conversation',
  description:
    'Reads a customer’s conversation and your team’s notes on it, then drafts a reply inside the 24-hour window or ' +
    'suggests a template outside it.',
  arguments: [
    { name: 'phone', description: 'The customer’s phone, digits with country code', required: true },
    CHANNEL_ARGUMENT,
  ],
  reads: ['chat_messages_list', 'chat_notes_list'],
  async build({ phone, channelId }, call, tools) {
    const history = await call('chat_messages_list', { channelId, phone, limit: 20 });
    const notes = await call('chat_notes_list', { channelId, phone, limit: 20 });
    const send = tools.has('chat_message_send')
      ? 'Show the draft to the user, and send it with chat_message_send (or the template with chat_templates_send) ' +
        'only once they confirm: a message cannot be taken back.'
      : 'This server cannot send messages: give the draft to the user.';
    return [
      `Answer the customer at ${phone}.`,
      `Their conversation, newest message first (chat_messages_list):\n${json(history.data)}`,
      'Your team’s private notes on it, newest first (chat_notes_list; the customer never sees them):\n' +
        json(notes.data),
      'Draft a reply in the customer’s language that answers what they last asked, using the notes. WhatsApp allows ' +
        'a free-form message only within 24 hours of the customer’s last inbound message: if that was longer ago, ' +
        'or they never wrote, suggest an approved template (chat_templates_list) with its variables instead.',
      send,
    ].join('\n\n');
  },
};

const summarizeInbox: PromptDefinition = {
  name: 'summarize_inbox',
  title: 'Summarize the inbox',
  description: 'Lists the open and pending conversations and asks for a summary by age and assignee.',
  arguments: [CHANNEL_ARGUMENT],
  reads: ['chat_conversations_list'],
  async build({ channelId }, call) {
    const inbox = await call('chat_conversations_list', { channelId, status: ['open', 'pending'], limit: 100 });
    const { total } = inbox.pagination as { total: number };
    return [
      `The inbox has ${total} open or pending conversations; the ${Math.min(total, 100)} with the most recent ` +
        `activity (chat_conversations_list):\n${json(inbox.data)}`,
      'Summarize them for the team: by assignee (unassigned first), each oldest-waiting first (lastInboundAt), ' +
        'with what the customer wants in a few words, whether messages are unread, and whose 24-hour window ' +
        '(windowExpiresAt) closes soonest. End with who should take the unassigned ones.',
    ].join('\n\n');
  },
};

const PROMPTS = [answerConversation, summarizeInbox];

/** Calls a tool for a prompt: its data, or the API's refusal as the prompt's error. */
function caller(tools: Tools, callApi: CallApi): Call {
  return async (name, params) => {
    const defined = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
    const reply = await callApi(tools.get(name)!, defined);
    const result = resultOf(reply);
    if (result) return result;
    const { error, message } = failureOf(reply);
    throw new McpError(ErrorCode.InvalidParams, `${name}: ${error}: ${message}`);
  };
}

/** The prompts whose tools this server offers: `prompts/list` and `prompts/get`. */
export function registerPrompts(server: Server, tools: Tools, callApi: CallApi): void {
  const offered = PROMPTS.filter((prompt) => prompt.reads.every((name) => tools.has(name)));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: offered.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const prompt = offered.find((candidate) => candidate.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `No prompt named ${request.params.name} on this server.`);
    const args = request.params.arguments ?? {};
    for (const argument of prompt.arguments ?? [])
      if (argument.required && !args[argument.name])
        throw new McpError(ErrorCode.InvalidParams, `${argument.name}: is required`);
    const text = await prompt.build(args, caller(tools, callApi), tools);
    return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
  });
}
