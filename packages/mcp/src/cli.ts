/**
 * `switchboard-mcp` (bin/switchboard-mcp.js runs it): Switchboard's tools over stdio, for desktop MCP clients. Every
 * call goes to the server at SWITCHBOARD_URL with SWITCHBOARD_API_KEY through the SDK; SWITCHBOARD_MCP_TOOLS narrows
 * the tools as `/mcp?tools=` does. stdout carries the protocol: anything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './server.js';
import { sdkCallApi } from './stdio-api.js';
import { selectTools } from './tool-set.js';

const USAGE = `Usage: SWITCHBOARD_URL=https://switchboard.example.com SWITCHBOARD_API_KEY=sb_live_… switchboard-mcp

Serves Switchboard's API as MCP tools over stdio.
  SWITCHBOARD_URL        the server root (no /api/…)
  SWITCHBOARD_API_KEY    an API key from the Developer Portal
  SWITCHBOARD_MCP_TOOLS  optional: "read", groups such as "contacts,chat", or both ("read,chat")`;

async function main(): Promise<void> {
  const { SWITCHBOARD_URL: baseUrl, SWITCHBOARD_API_KEY: apiKey, SWITCHBOARD_MCP_TOOLS: selector } = process.env;
  if (process.argv.includes('--help') || !baseUrl || !apiKey) {
    console.error(USAGE);
    process.exitCode = process.argv.includes('--help') ? 0 : 2;
    return;
  }
  const server = createMcpServer({ tools: selectTools(selector), callApi: sdkCallApi({ baseUrl, apiKey }) });
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
