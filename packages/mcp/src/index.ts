// What the server's /mcp and other hosts build on: the tool catalogue, its narrowing, and the MCP server over it.
export type { ApiReply, CallApi } from './api-call.js';
export type { JsonSchema, ToolSpec } from './catalogue.js';
export { TOOLS } from './generated/tools.js';
export { createMcpServer, type McpServerOptions } from './server.js';
export { selectTools, ToolSelectionError } from './tool-set.js';
export { MCP_VERSION } from './version.js';
