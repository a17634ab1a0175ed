import { createClient, isSwitchboardError, type SwitchboardClient } from '@switchboard/client';
import type { ApiReply, CallApi } from './api-call.js';

type Method = (params: Record<string, unknown>) => Promise<unknown>;

/** The SDK method of an operation (`workspace.contacts.list` → `sb.workspace.contacts.list`). */
function methodOf(sb: SwitchboardClient, operation: string): Method {
  const method = operation.split('.').reduce<unknown>((node, name) => (node as Record<string, unknown>)[name], sb);
  if (typeof method !== 'function') throw new Error(`The SDK has no method ${operation}`);
  return method as Method;
}

/** A failure the SDK threw, as the API's reply: connection failures keep their own code (`timeout`, …). */
function replyOfError(error: unknown): ApiReply {
  if (!isSwitchboardError(error)) throw error;
  return {
    status: error.status,
    body: { success: false, error: error.code, message: error.message },
    retryAfterSeconds: error.retryAfter,
  };
}

/**
 * Tool calls through the SDK against a Switchboard server: each is the SDK's call of the endpoint (its Idempotency-Key
 * on writes, its retries of network failures and 503s), so the server applies every rule it applies to any client.
 */
export function sdkCallApi(options: { baseUrl: string; apiKey: string }): CallApi {
  const sb = createClient({
    ...options,
    appInfo: { name: 'switchboard-mcp' },
    // One retry of a network failure or a 503; a 429 that asks for more than a second goes back to the agent at
    // once, with its Retry-After, rather than holding the call.
    retry: { attempts: 2, maxDelayMs: 1000 },
  });
  return async (tool, params) => {
    try {
      return { status: 200, body: await methodOf(sb, tool.operation)(params) };
    } catch (error) {
      return replyOfError(error);
    }
  };
}
