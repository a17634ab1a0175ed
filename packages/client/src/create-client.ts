import { contract, type Contract } from '@switchboard/contract';
import { initClient, isAppRoute, type ApiFetcherArgs, type AppRoute, type AppRouter } from '@ts-rest/core';
import axios, { type AxiosError, type AxiosInstance } from 'axios';
import type { z } from 'zod';
import { SwitchboardError } from './errors.js';

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

export type SwitchboardClient = ClientTree<Contract>;

export interface ClientOptions {
  /** Server root, e.g. `https://api.example.com` (no `/api/...`). */
  baseUrl: string;
  apiKey: string;
  /** Your own axios instance (interceptors, proxies); one is created when omitted. */
  axios?: AxiosInstance;
  timeoutMs?: number;
}

export function toSwitchboardError(status: number, body: unknown, headers: Record<string, string>): SwitchboardError {
  const envelope = (body ?? {}) as { error?: unknown; message?: unknown };
  const retryAfter = headers['retry-after'] !== undefined ? Number(headers['retry-after']) : undefined;
  return new SwitchboardError(
    status,
    typeof envelope.error === 'string' ? envelope.error : `http_${status}`,
    typeof envelope.message === 'string' ? envelope.message : `Request failed with status ${status}`,
    headers['x-request-id'],
    Number.isFinite(retryAfter) ? retryAfter : undefined,
    headers,
  );
}

/** ts-rest's fetcher contract, fulfilled with axios. */
function axiosFetcher(http: AxiosInstance) {
  return async (args: ApiFetcherArgs) => {
    try {
      const response = await http.request({
        method: args.method,
        url: args.path,
        headers: args.headers,
        data: args.body,
        validateStatus: () => true,
      });
      return { status: response.status, body: response.data, headers: new Headers(response.headers as Record<string, string>) };
    } catch (error) {
      const cause = error as AxiosError;
      throw new SwitchboardError(0, cause.code ?? 'network_error', cause.message, undefined, undefined);
    }
  };
}

function buildTree(router: AppRouter, calls: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(router).map(([name, node]) => {
      if (isAppRoute(node)) throw new Error(`Unexpected bare route ${name}`);
      const branch = calls[name] as Record<string, unknown>;
      if ('post' in node && isAppRoute(node.post)) {
        const post = branch.post as (args: { body: unknown }) => Promise<{ status: number; body: unknown; headers: Headers }>;
        const method = async (params: unknown = {}) => {
          const reply = await post({ body: params });
          if (reply.status >= 200 && reply.status < 300) return reply.body;
          throw toSwitchboardError(reply.status, reply.body, Object.fromEntries(reply.headers.entries()));
        };
        return [name, method];
      }
      return [name, buildTree(node as AppRouter, branch)];
    }),
  );
}

/**
 * A typed client for every endpoint of the contract, grouped like the API paths:
 * `await sb.workspace.contacts.list({ search: 'ada' })`.
 */
export function createClient(options: ClientOptions): SwitchboardClient {
  const http = options.axios ?? axios.create({ timeout: options.timeoutMs ?? 30_000 });
  const calls = initClient(contract, {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    baseHeaders: { 'x-api-key': options.apiKey },
    api: axiosFetcher(http),
    validateResponse: false,
    throwOnUnknownStatus: false,
  });
  return buildTree(contract, calls as unknown as Record<string, unknown>) as SwitchboardClient;
}
