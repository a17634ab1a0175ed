import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { failureOf, resultOf, type CallApi } from './api-call.js';
import type { ToolSpec } from './catalogue.js';
import { registerPrompts } from './prompts.js';
import { MCP_VERSION } from './version.js';

/** What an agent reads once, at `initialize`: how the tools fit together. */
const INSTRUCTIONS = [
  'Switchboard is a WhatsApp-style messaging workspace; each tool is one endpoint of its API, called with your API ' +
    'key, under its rules and rate limits.',
  'Workspace tools act on one channel: `channelId` from channels_list, which may be left out when the key has ' +
    'exactly one channel. A conversation is addressed by its contact (`phone` or `contactId`).',
  'Sends reach customers and cannot be taken back (destructiveHint): confirm them with the user first. A ' +
    'free-form reply (chat_message_send) is possible within 24 hours of the customer’s last message ' +
    '(windowExpiresAt in chat_conversations_list); outside that window only an approved template ' +
    '(chat_templates_list, chat_templates_send).',
  'A failure is a result with isError: the API’s error code and message (a 400 names the field).',
].join('\n\n');

const listed = (tool: ToolSpec): Tool => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  outputSchema: tool.outputSchema,
  annotations: tool.annotations,
});

const asText = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }];

/** One tool call: the API's success envelope as structured content (and text), its failure as an error result. */
async function callTool(tool: ToolSpec, params: Record<string, unknown>, callApi: CallApi): Promise<CallToolResult> {
  const reply = await callApi(tool, params);
  const result = resultOf(reply);
  if (result) return { structuredContent: result, content: asText(result) };
  return { isError: true, content: asText(failureOf(reply)) };
}

export interface McpServerOptions {
  /** The tools this server offers (selectTools): only these are listed and callable. */
  tools: readonly ToolSpec[];
  callApi: CallApi;
}

/**
 * @modelcontextprotocol/sdk 1.x, the official SDK's line that takes zod `^3.25 || ^4`: the contract is pinned to zod
 * 3.25 (zod 4 breaks ts-rest), and the SDK's 2.x packages need zod 4.2.
 *
 * An MCP server (the official SDK's low-level `Server`: the tools are data, not zod schemas) offering the API's
 * endpoints as tools and the prompts built on them. Connect it to a transport: stdio, or one Streamable HTTP request.
 */
export function createMcpServer({ tools, callApi }: McpServerOptions): Server {
  const server = new Server(
    { name: 'switchboard', title: 'Switchboard', version: MCP_VERSION },
    { capabilities: { tools: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(listed) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool named ${request.params.name} on this server.`);
    return callTool(tool, request.params.arguments ?? {}, callApi);
  });
  registerPrompts(server, byName, callApi);
  return server;
}
