import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** The official SDK's MCP client over Streamable HTTP at `<baseUrl>/mcp<query>`, sending these headers. */
export async function mcpOverHttp(baseUrl: string, headers: Record<string, string>, query = ''): Promise<Client> {
  const client = new Client({ name: 'switchboard-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`/mcp${query}`, baseUrl), { requestInit: { headers } }),
  );
  return client;
}

/** Calls a tool that must succeed: its structured content (the envelope without `success`). */
export async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  // The text is the same result, for clients that read only text.
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** Calls a tool that must fail: the API's error code and message from the error result. */
export async function callFails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ error: string; message: string; retryAfterSeconds?: number }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} succeeded: ${JSON.stringify(result.structuredContent)}`).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return JSON.parse((result.content[0] as { text: string }).text);
}

/** The `switchboard-mcp` bin as built in this workspace (packages/mcp), over stdio, against a server. */
export async function mcpOverStdio(
  bin: string,
  env: { SWITCHBOARD_URL: string; SWITCHBOARD_API_KEY: string; SWITCHBOARD_MCP_TOOLS?: string },
): Promise<Client> {
  const client = new Client({ name: 'switchboard-tests', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin], env, stderr: 'pipe' }));
  return client;
}
