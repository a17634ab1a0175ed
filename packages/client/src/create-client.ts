import { contract, type Contract, type EndpointMetadata } from '@switchboard/contract';
import { initClient, isAppRoute, type ApiFetcherArgs, type AppRoute, type AppRouter } from '@ts-rest/core';
import axios, { type AxiosError, type AxiosInstance } from 'axios';
import type { z } from 'zod';
import { SwitchboardError, toSwitchboardError } from './errors.js';
import { paginate } from './paginate.js';
import { isIdempotent, resolveRetry, withRetry, type ResolvedRetry, type RetryOptions } from './retry.js';

interface EndpointRoutes {
  post: AppRoute & { body: z.ZodTypeAny };
  get: AppRoute;
}

type SuccessOf<E extends EndpointRoutes> = E['post']['responses'][200] extends z.ZodTypeAny
  ? z.output<E['post']['responses'][200]>
  : never;
type ParamsOf<E extends EndpointRoutes> = z.input<E['post']['body']>;

/** One method per endpoint: takes the endpoint's parameters, resolves to the success envelope, throws SwitchboardError. */
export type EndpointMethod<E extends EndpointRoutes> = {} extends ParamsOf<E>
  ? (params?: ParamsOf<E>) => Promise<SuccessOf<E>>
  : (params: ParamsOf<E>) => Promise<SuccessOf<E>>;

export type ClientTree<T> = {
  [K in keyof T]: T[K] extends EndpointRoutes ? EndpointMethod<T[K]> : ClientTree<T[K]>;
};

export type SwitchboardClient = ClientTree<Contract> & {
  /** Async-iterates every item of a paginated list: `for await (const c of sb.paginate(sb.workspace.contacts.list, { search }))`. */
  paginate: typeof paginate;
};

export interface ClientOptions {
  /** Server root, e.g. `https://api.example.com` (no `/api/...`). */
  baseUrl: string;
  apiKey: string;
  /** Your own axios instance (interceptors, proxies); one is created when omitted. */
  axios?: AxiosInstance;
  /** Per-request timeout; default 30 s. A timed-out request fails with status 0 (code `ECONNABORTED`). */
  timeoutMs?: number;
  /**
   * Opt-in automatic retry (off by default): `true` for the defaults, or bounds. A 429 is retried for every
   * endpoint after its `Retry-After`; a network failure or 503 only for reads (rate class `api_read`).
   */
  retry?: boolean | RetryOptions;
}

type Reply = { status: number; body: unknown; headers: Headers };

/** ts-rest's fetcher contract, fulfilled with axios. */
function axiosFetcher(http: AxiosInstance, timeoutMs: number | undefined) {
  return async (args: ApiFetcherArgs): Promise<Reply> => {
    try {
      const response = await http.request({
        method: args.method,
        url: args.path,
        headers: args.headers,
        data: args.body,
        timeout: timeoutMs,
        validateStatus: () => true,
      });
      return { status: response.status, body: response.data, headers: new Headers(response.headers as Record<string, string>) };
    } catch (error) {
      const cause = error as AxiosError;
      throw new SwitchboardError(0, cause.code ?? 'network_error', cause.message, undefined, undefined);
    }
  };
}

function endpointMethod(send: (args: { body: unknown }) => Promise<Reply>, metadata: EndpointMetadata, retry: ResolvedRetry | undefined) {
  const once = async (params: unknown) => {
    const reply = await send({ body: params });
    if (reply.status >= 200 && reply.status < 300) return reply.body;
    throw toSwitchboardError(reply.status, reply.body, Object.fromEntries(reply.headers.entries()));
  };
  return (params: unknown = {}) => withRetry(() => once(params), isIdempotent(metadata), retry);
}

function buildTree(router: AppRouter, calls: Record<string, unknown>, retry: ResolvedRetry | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(router).map(([name, node]) => {
      if (isAppRoute(node)) throw new Error(`Unexpected bare route ${name}`);
      const branch = calls[name] as Record<string, unknown>;
      if ('post' in node && isAppRoute(node.post)) {
        const send = branch.post as (args: { body: unknown }) => Promise<Reply>;
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
  return { ...tree, paginate } as SwitchboardClient;
}
