import { contract, type EndpointMetadata } from '@switchboard/contract';
import { initClient, isAppRoute, type ApiFetcherArgs, type AppRouter } from '@ts-rest/core';
import axios, { type AxiosError, type AxiosInstance } from 'axios';
import type { SwitchboardApi } from './generated/api.js';
import { ApiConnectionError, connectionErrorCode, toSwitchboardError } from './errors.js';
import { idempotencyHeaders, type WriteOptions } from './idempotency.js';
import { paginate } from './paginate.js';
import { isIdempotent, resolveRetry, withRetry, type ResolvedRetry, type RetryOptions } from './retry.js';
import { SDK_VERSION } from './version.js';

/** Per-call options, beside the endpoint's parameters (`idempotencyKey` applies to writes). */
export interface RequestOptions extends WriteOptions {
  /**
   * Milliseconds before this call gives up (ApiConnectionError, code `ECONNABORTED`); default: the client's
   * `timeoutMs`.
   */
  timeout?: number;
  /** Aborts the call (ApiConnectionError, code `ERR_CANCELED`); also stops retries. */
  signal?: AbortSignal;
}

/**
 * One method per endpoint (plain types generated from the contract, see src/generated/api.ts): takes the endpoint's
 * parameters and per-call options (timeout, signal and, for writes, an `idempotencyKey`), resolves to the success
 * envelope, throws SwitchboardError.
 */
export interface SwitchboardClient extends SwitchboardApi {
  /**
   * Async-iterates every item of a paginated list: `for await (const c of sb.paginate(sb.workspace.contacts.list, {
   * search }))`.
   */
  paginate: typeof paginate;
}

export interface ClientOptions {
  /** Server root, e.g. `https://api.example.com` (no `/api/...`). */
  baseUrl: string;
  apiKey: string;
  /** Your own axios instance (interceptors, proxies); one is created when omitted. */
  axios?: AxiosInstance;
  /**
   * Timeout of each request; default 30 s (a call's `timeout` option overrides it). A timed-out request fails with
   * ApiConnectionError (status 0, code `ECONNABORTED`).
   */
  timeoutMs?: number;
  /**
   * Opt-in automatic retry (off by default): `true` for the defaults, or bounds. A 429 is retried for every
   * endpoint after its `Retry-After`; a network failure or 503 for reads, and for writes under their Idempotency-Key.
   */
  retry?: boolean | RetryOptions;
}

type Reply = { status: number; body: unknown; headers: Headers };
/** What each call hands ts-rest, which passes it on to the fetcher. */
type CallArgs = {
  body: unknown;
  extraHeaders: Record<string, string>;
  fetchOptions: { signal?: AbortSignal };
  timeout?: number;
};
type Send = (args: CallArgs) => Promise<Reply>;

const USER_AGENT = `switchboard-node/${SDK_VERSION}`;

/** ts-rest's fetcher contract, fulfilled with axios. */
function axiosFetcher(http: AxiosInstance, timeoutMs: number | undefined) {
  return async (args: ApiFetcherArgs & { timeout?: number }): Promise<Reply> => {
    try {
      const response = await http.request({
        method: args.method,
        url: args.path,
        headers: { 'user-agent': USER_AGENT, ...args.headers },
        data: args.body,
        timeout: args.timeout ?? timeoutMs,
        signal: args.fetchOptions?.signal ?? undefined,
        validateStatus: () => true,
      });
      return {
        status: response.status,
        body: response.data,
        headers: new Headers(response.headers as Record<string, string>),
      };
    } catch (error) {
      const cause = error as AxiosError;
      throw new ApiConnectionError(0, connectionErrorCode(cause.code), cause.message, undefined, undefined);
    }
  };
}

function endpointMethod(send: Send, metadata: EndpointMetadata, retry: ResolvedRetry | undefined) {
  const once = async (params: unknown, options: RequestOptions, extraHeaders: Record<string, string>) => {
    const reply = await send({
      body: params,
      extraHeaders,
      fetchOptions: { signal: options.signal },
      timeout: options.timeout,
    });
    if (reply.status >= 200 && reply.status < 300) return reply.body;
    throw toSwitchboardError(reply.status, reply.body, Object.fromEntries(reply.headers.entries()));
  };
  return (params: unknown = {}, options: RequestOptions = {}) => {
    // One key per call, sent again on each of its retries: the server replays a write that already ran.
    const headers = idempotencyHeaders(metadata, options);
    return withRetry(() => once(params, options, headers), isIdempotent(metadata, headers), retry);
  };
}

function buildTree(
  router: AppRouter,
  calls: Record<string, unknown>,
  retry: ResolvedRetry | undefined,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(router).map(([name, node]) => {
      if (isAppRoute(node)) throw new Error(`Unexpected bare route ${name}`);
      const branch = calls[name] as Record<string, unknown>;
      if ('post' in node && isAppRoute(node.post)) {
        const send = branch.post as Send;
        return [name, endpointMethod(send, node.post.metadata as EndpointMetadata, retry)];
      }
      return [name, buildTree(node as AppRouter, branch, retry)];
    }),
  );
}

/**
 * A typed client for every endpoint of the contract, grouped like the API paths:
 * `await sb.workspace.contacts.list({ search: 'ada' })`. Every call is a POST with a JSON body.
 */
export function createClient(options: ClientOptions): SwitchboardClient {
  const http = options.axios ?? axios.create({ timeout: 30_000 });
  const calls = initClient(contract, {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    baseHeaders: { 'x-api-key': options.apiKey },
    api: axiosFetcher(http, options.timeoutMs),
    validateResponse: false,
    throwOnUnknownStatus: false,
  });
  const tree = buildTree(contract, calls as unknown as Record<string, unknown>, resolveRetry(options.retry));
  return { ...tree, paginate } as unknown as SwitchboardClient;
}
