import type { ToolSpec } from './catalogue.js';

/** How the API answered one call: its status and body (the envelope). */
export interface ApiReply {
  status: number;
  body: unknown;
  /** A 429's or 503's Retry-After, in seconds. */
  retryAfterSeconds?: number | undefined;
}

/**
 * Makes one API call for a tool: a POST of `params` to the tool's path with the caller's key. The server's /mcp sends
 * it through its own HTTP stack, the stdio server through the SDK: never a second implementation of an endpoint.
 */
export type CallApi = (tool: ToolSpec, params: Record<string, unknown>) => Promise<ApiReply>;

interface Failure {
  error: string;
  message: string;
}

const isFailure = (body: unknown): body is Failure =>
  typeof body === 'object' && body !== null && typeof (body as Failure).error === 'string';

/** The envelope of a failure, whatever came back: a reply that is not the envelope still says its status. */
export function failureOf(reply: ApiReply): Failure & { retryAfterSeconds?: number } {
  const failure = isFailure(reply.body)
    ? { error: reply.body.error, message: String(reply.body.message) }
    : { error: 'unexpected_reply', message: `The API answered ${reply.status} without its envelope.` };
  return reply.retryAfterSeconds === undefined ? failure : { ...failure, retryAfterSeconds: reply.retryAfterSeconds };
}

/** The success envelope without `success`: `data`, and `pagination`, `total` and `message` where the reply has them. */
export function resultOf(reply: ApiReply): Record<string, unknown> | undefined {
  const body = reply.body as { success?: unknown } | null;
  if (reply.status < 200 || reply.status >= 300 || typeof body !== 'object' || body?.success !== true) return undefined;
  const { success: _success, ...result } = body as Record<string, unknown>;
  return result;
}
