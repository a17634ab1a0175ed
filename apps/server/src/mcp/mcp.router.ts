import { createMcpServer, selectTools, ToolSelectionError, type CallApi, type ToolSpec } from '@switchboard/mcp';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { authenticate } from '../http/auth.js';
import type { HttpDeps } from '../http/register.js';
import { AppError, ValidationError } from '../kit/errors.js';
import type { InProcessHttp } from './in-process-http.js';

const MCP_PATH = '/mcp';

/** What a tool call carries over from the MCP request: the same key, request id, client and, on writes, retry key. */
const CARRIED = ['x-api-key', 'authorization', 'x-request-id', 'user-agent', 'x-forwarded-for'] as const;

function carriedHeaders(req: Request, tool: ToolSpec): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of CARRIED) {
    const value = name === 'x-request-id' ? String(req.id) : req.get(name);
    if (value !== undefined) headers[name] = value;
  }
  const retryKey = req.get('idempotency-key');
  if (retryKey !== undefined && !tool.annotations.readOnlyHint) headers['idempotency-key'] = retryKey;
  return headers;
}

/** A tool call is a POST of the API's endpoint through this app, as the caller: nothing an agent does skips a rule. */
function callThrough(req: Request, send: InProcessHttp): CallApi {
  return async (tool, params) => {
    const reply = await send({
      path: tool.path,
      headers: carriedHeaders(req, tool),
      body: params,
      remoteAddress: req.socket.remoteAddress,
    });
    const retryAfter = Number(reply.headers['retry-after']);
    return { ...reply, retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined };
  };
}

/** `?tools=read`, `?tools=contacts,chat` (repeated `tools=` join). */
function toolsOf(req: Request): ToolSpec[] {
  const selector = ([] as unknown[])
    .concat(req.query.tools ?? [])
    .map(String)
    .join(',');
  try {
    return selectTools(selector);
  } catch (error) {
    if (error instanceof ToolSelectionError)
      throw ValidationError.field('tools', error.message.replace(/^tools: /, ''));
    throw error;
  }
}

/** One stateless Streamable HTTP exchange: a fresh server and transport per request, JSON replies (no SSE). */
async function serve(req: Request, res: Response, send: InProcessHttp) {
  const server = createMcpServer({ tools: toolsOf(req), callApi: callThrough(req, send) });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

const postOnly = (_req: Request, res: Response, next: NextFunction) => {
  res.setHeader('Allow', 'POST');
  next(new AppError(405, 'method_not_allowed', 'The MCP endpoint is stateless: POST each JSON-RPC message.'));
};

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP (stateless, JSON replies), with the official SDK's
 * transport. The key is checked as on every API route (401 with WWW-Authenticate without one); each tool call is
 * then an API request of its own through this app (`send`), under the caller's key.
 */
export function mcpRoutes(deps: Pick<HttpDeps, 'em' | 'apiKeys' | 'callers'>, send: InProcessHttp): Router {
  const router = express.Router();
  router.post(MCP_PATH, authenticate(deps.em, deps.apiKeys, deps.callers), (req, res, next) => {
    serve(req, res, send).catch(next);
  });
  router.all(MCP_PATH, postOnly);
  return router;
}
