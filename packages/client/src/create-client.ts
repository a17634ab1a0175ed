import { contract, contractEndpoints, isPaginated, type ContractRoute } from '@switchboard/contract';
import { initClient, type ApiFetcherArgs } from '@ts-rest/core';
import axios from 'axios';
import type { SwitchboardApi, WebhookEventType } from './generated/api.js';
import { openEventStream, type EventStream, type EventStreamOptions } from './event-stream.js';
import { connectionError, isSwitchboardError, toSwitchboardError } from './errors.js';
import { getOverList } from './get-method.js';
import { GETTERS } from './getters.js';
import { idempotencyHeaders } from './idempotency.js';
import { paginate, type PagedMethod } from './paginate.js';
import type { RequestOptions } from './request-options.js';
import { APIPromise, responseInfo, type WithResponse } from './response.js';
import { isIdempotent, resolveRetry, withRetry, type ResolvedRetry, type RetryOptions } from './retry.js';
import { userAgent, validBaseUrl, type AppInfo } from './settings.js';
import type { HttpTransport } from './transport.js';
import { verifyWebhook, verifyWebhookBatch } from './webhooks.js';

/**
 * One method per endpoint (plain types generated from the contract, see src/generated/api.ts): takes the endpoint's
 * parameters and per-call options (timeout, signal and, for writes, an `idempotencyKey`), resolves to the success
 * envelope, throws SwitchboardError. Lists also have `.all()`; every method has `.isError()`, every returned promise
 * `.withResponse()`.
 */
export interface SwitchboardClient extends SwitchboardApi {
  /**
   * Async-iterates every item of a paginated list: `for await (const c of sb.paginate(sb.workspace.contacts.list, {
   * search }))`.
   */
  paginate: typeof paginate;
  webhooks: {
    /** Checks a delivery's Standard Webhooks signature and returns its typed event (see verifyWebhook). */
    verify: typeof verifyWebhook;
    /** The same for a batched delivery (an endpoint with `batch: true`), see verifyWebhookBatch. */
    verifyBatch: typeof verifyWebhookBatch;
  };
  events: {
    /**
     * The live event stream (GET events/stream, Server-Sent Events): every event of the key's channels, typed as
     * webhooks deliver them, as an async iterable (`for await`). It reconnects by itself after a dropped connection
     * and resumes after the last event it yielded; `lastEventId` resumes a stream you stored, `onOpen` says when it
     * is live, `onDisconnect` that it is not any more, `onError` each failed reconnection (`maxRetries` bounds them:
     * then the iteration throws ApiConnectionError), `onReset` that a gap was too old to replay (24 h); `close()` or
     * `signal` ends it. `types` narrows the events' type. A refusal (401, 403, 429 past 10 streams per user) is
     * thrown from the iteration as the SDK's error.
     * @example
     * for await (const event of sb.events.stream({ types: ['message.received'] })) console.log(event.data.text);
     */
    stream<Type extends WebhookEventType = WebhookEventType>(options?: EventStreamOptions<Type>): EventStream<Type>;
  };
}

export interface ClientOptions {
  /** Server root, e.g. `https://api.example.com` (no `/api/...`); checked here, so a typo fails at once. */
  baseUrl: string;
  apiKey: string;
  /**
   * Your own axios instance (interceptors, proxies); one is created when omitted. Its User-Agent, if set, is kept in
   * front of the SDK's.
   */
  axios?: HttpTransport | undefined;
  /**
   * Timeout of each request; default 30 s (a call's `timeout` option overrides it). A timed-out request fails with
   * ApiConnectionError (status 0, code `timeout`).
   */
  timeoutMs?: number | undefined;
  /**
   * How many times a failed request is repeated (default 2; 0 turns retrying off): a 429 after its `Retry-After` on
   * every endpoint, a network failure or 503 on reads and on writes under their Idempotency-Key.
   */
  maxRetries?: number | undefined;
  /**
   * The retry bounds (`attempts`, `maxDelayMs`, `baseDelayMs`); `false` turns retrying off. `maxRetries` takes
   * precedence for the count.
   */
  retry?: boolean | RetryOptions | undefined;
  /**
   * Your integration, appended to the User-Agent (`switchboard-node/1.0.0 acme-crm/2.3.0 (+https://acme.example)`), as
   * Stripe's `appInfo`.
   */
  appInfo?: AppInfo | undefined;
}

type Reply = { status: number; body: unknown; headers: Headers };
/** What each call hands ts-rest, which passes it on to the fetcher. */
type CallArgs = {
  body: unknown;
  extraHeaders: Record<string, string>;
  fetchOptions: { signal?: AbortSignal | undefined };
  timeout?: number | undefined;
};
type Send = (args: CallArgs) => Promise<Reply>;

/**
 * ts-rest's fetcher contract, fulfilled with axios; a request that got no reply comes back as status 0 with the error
 * as body.
 */
function axiosFetcher(http: HttpTransport, timeoutMs: number | undefined, agent: string) {
  return async (args: ApiFetcherArgs & { timeout?: number }): Promise<Reply> => {
    try {
      const response = await http.request({
        method: args.method,
        url: args.path,
        headers: { 'user-agent': agent, ...args.headers },
        data: args.body,
        timeout: args.timeout ?? timeoutMs,
        signal: (args.fetchOptions?.signal as AbortSignal | undefined) ?? undefined,
        validateStatus: () => true,
      });
      return {
        status: response.status,
        body: response.data,
        headers: new Headers(response.headers as Record<string, string>),
      };
    } catch (error) {
      return { status: 0, body: error, headers: new Headers() };
    }
  };
}

/** How each method sends: the client's retry bounds and timeout (undefined: the axios instance's own). */
interface Sending {
  retry: ResolvedRetry | undefined;
  timeoutMs: number | undefined;
}

function endpointMethod(send: Send, route: ContractRoute, { retry, timeoutMs }: Sending) {
  const { operation } = route.metadata;
  const once = async <T>(params: unknown, options: RequestOptions, extraHeaders: Record<string, string>) => {
    const reply = await send({
      body: params,
      extraHeaders,
      fetchOptions: { signal: options.signal },
      timeout: options.timeout,
    });
    if (reply.status === 0)
      throw connectionError(reply.body, operation, {
        aborted: options.signal?.aborted,
        timeoutMs: options.timeout ?? timeoutMs,
      });
    const headers = Object.fromEntries(reply.headers.entries());
    if (reply.status < 200 || reply.status >= 300)
      throw toSwitchboardError(reply.status, reply.body, headers, operation);
    return { data: reply.body as T, response: responseInfo(reply.status, headers) } satisfies WithResponse<T>;
  };
  const method = <T>(params: unknown = {}, options: RequestOptions = {}) => {
    // One key per call, sent again on each of its retries: the server replays a write that already ran.
    const headers = idempotencyHeaders(route.metadata, options);
    const idempotent = isIdempotent(route.metadata, headers);
    return new APIPromise(
      withRetry(() => once<T>(params, options, headers), idempotent, retry, options.signal, operation),
    );
  };
  const isError = (error: unknown) => isSwitchboardError(error) && error.operation === operation;
  const all = (params: object = {}, options?: RequestOptions) =>
    paginate(method as unknown as PagedMethod<object, unknown>, params, options);
  return Object.assign(method, { isError }, isPaginated(route) && { all });
}

/** The client tree, shaped like the contract: each endpoint's method at its place (`workspace.contacts.list`). */
function buildTree(calls: Record<string, unknown>, sending: Sending): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const { at, post } of contractEndpoints(contract)) {
    const send = at.reduce<Record<string, unknown>>((branch, name) => branch[name] as Record<string, unknown>, calls)
      .post as Send;
    const parent = at
      .slice(0, -1)
      .reduce<Record<string, unknown>>((branch, name) => (branch[name] ??= {}) as Record<string, unknown>, tree);
    parent[at.at(-1)!] = endpointMethod(send, post, sending);
  }
  for (const [group, getter] of Object.entries(GETTERS)) {
    const branch = group.split('.').reduce<Record<string, unknown>>((at, name) => at[name] as never, tree);
    branch.get = getOverList(branch.list as never, getter, `${group}.list`);
  }
  return tree;
}

/**
 * A typed client for every endpoint of the contract, grouped like the API paths:
 * `await sb.workspace.contacts.list({ search: 'ada' })`. Every call is a POST with a JSON body.
 */
export function createClient(options: ClientOptions): SwitchboardClient {
  if (typeof options?.apiKey !== 'string' || !options.apiKey.trim())
    throw new TypeError('createClient: apiKey is required (the API key from the Developer Portal)');
  const { timeoutMs } = options;
  const http = options.axios ?? axios.create({ timeout: 30_000 });
  const agent = userAgent(http, options.appInfo);
  const calls = initClient(contract, {
    baseUrl: validBaseUrl(options.baseUrl),
    baseHeaders: { 'x-api-key': options.apiKey },
    api: axiosFetcher(http, timeoutMs, agent),
    validateResponse: false,
    throwOnUnknownStatus: false,
  });
  const tree = buildTree(calls as unknown as Record<string, unknown>, {
    retry: resolveRetry(options.retry, options.maxRetries),
    timeoutMs,
  });
  const streamSettings = { baseUrl: validBaseUrl(options.baseUrl), apiKey: options.apiKey, userAgent: agent };
  const events = {
    stream: <Type extends WebhookEventType>(streamOptions?: EventStreamOptions<Type>) =>
      openEventStream(streamSettings, streamOptions),
  };
  const webhooks = { verify: verifyWebhook, verifyBatch: verifyWebhookBatch };
  return { ...tree, paginate, webhooks, events } as unknown as SwitchboardClient;
}
