import {
  ApiConnectionError,
  AuthenticationError,
  createClient,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SwitchboardError,
} from '@switchboard/client';
import { contract, contractEndpoints } from '@switchboard/contract';
import axios from 'axios';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/processes.js';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, ok, startStandIn, type StandIn } from './stand-in.js';

/** Every POST route of the contract with the SDK method at the same place in the tree. */
function postRoutes(sdk: Record<string, unknown>) {
  return contractEndpoints(contract).map(({ at, post }) => ({
    route: post,
    method: at.reduce<unknown>((branch, name) => (branch as Record<string, unknown>)[name], sdk) as (
      params: object,
    ) => Promise<unknown>,
  }));
}

describe('SDK requests and errors', () => {
  let stand: StandIn | undefined;
  afterEach(() => stand?.close());

  it('has one method per contract endpoint, placed like the path, sending the example to that path', async () => {
    stand = await startStandIn(() => ok({}));
    const sb = createClient({ baseUrl: stand.url, apiKey: 'k' });
    const endpoints = postRoutes(sb as unknown as Record<string, unknown>);
    expect(endpoints.length).toBeGreaterThanOrEqual(13);
    for (const { route, method } of endpoints) {
      const { example, operation } = route.metadata;
      expect(typeof method, operation).toBe('function');
      await method(example);
    }
    expect(stand.requests.map((r) => [r.method, r.path, r.body])).toEqual(
      endpoints.map(({ route }) => ['POST', route.path, route.metadata.example]),
    );
  });

  it('POSTs the parameters as JSON to the contract path with the key in X-API-Key', async () => {
    stand = await startStandIn(() => ok({ id: 't1' }));
    const sb = createClient({ baseUrl: `${stand.url}/`, apiKey: 'sk_live_abc' });
    await sb.platform.tickets.manage({ platformId: 'p1', ticketId: 'T-1', status: 'closed' });
    expect(stand.requests).toHaveLength(1);
    const [request] = stand.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/api/platform/v1/tickets/manage',
      body: { platformId: 'p1', ticketId: 'T-1', status: 'closed' },
    });
    expect(request!.headers['x-api-key']).toBe('sk_live_abc');
    expect(request!.headers['content-type']).toMatch(/application\/json/);
    expect(request!.headers.authorization).toBeUndefined();
  });

  it('throws SwitchboardError with status, code, message, requestId, retryAfter from the envelope', async () => {
    stand = await startStandIn(() => failure(429, 'rate_limited', { 'retry-after': '17' }));
    const error = await createClient({ baseUrl: stand.url, apiKey: 'k' })
      .workspace.labels.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'RateLimitError',
      status: 429,
      code: 'rate_limited',
      message: 'rate_limited (scripted)',
      requestId: 'req-1',
      retryAfter: 17,
    });
    expect((error as SwitchboardError).headers['retry-after']).toBe('17');
  });

  it('names a reply that is not the envelope (a proxy’s HTML page) by its status', async () => {
    stand = await startStandIn(() => ({ status: 502, body: '<html>Bad gateway</html>' }));
    const error = await createClient({ baseUrl: stand.url, apiKey: 'k' })
      .workspace.labels.list()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 502,
      code: 'http_502',
      message: 'Request failed with status 502',
      retryAfter: undefined,
    });
  });

  it('names an envelope code this SDK does not know by its status: `code` is a SwitchboardErrorCode', async () => {
    stand = await startStandIn(() => ({
      status: 400,
      body: { success: false, error: 'brand_new_code', message: 'limit: too new' },
    }));
    const error = await createClient({ baseUrl: stand.url, apiKey: 'k' })
      .workspace.labels.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'http_400', message: 'limit: too new', param: 'limit' });
  });

  it('reports an unreachable server as status 0 with the network error code', async () => {
    stand = await startStandIn(() => ok(null));
    const url = stand.url;
    await stand.close();
    stand = undefined;
    const error = await createClient({ baseUrl: url, apiKey: 'k' })
      .workspace.channels.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toMatchObject({ name: 'ApiConnectionError', status: 0, code: 'ECONNREFUSED', requestId: undefined });
  });

  it('sends through a caller-supplied axios instance (its interceptors run)', async () => {
    stand = await startStandIn(() => ok([], { total: 0 }));
    const http = axios.create();
    http.interceptors.request.use((config) => {
      config.headers.set('x-trace', 'abc');
      return config;
    });
    await createClient({ baseUrl: stand.url, apiKey: 'k', axios: http }).workspace.channels.list();
    expect(stand.requests[0]!.headers['x-trace']).toBe('abc');
    expect(stand.requests[0]!.headers['x-api-key']).toBe('k');
  });

  it('throws a subclass per error family, each a SwitchboardError; InvalidRequestError names the field', async () => {
    const cases = [
      [400, 'invalid_request', InvalidRequestError],
      [401, 'unauthorized', AuthenticationError],
      [403, 'forbidden', PermissionError],
      [404, 'ticket_not_found', NotFoundError],
      [429, 'rate_limited', RateLimitError],
      [500, 'internal_error', SwitchboardError],
    ] as const;
    for (const [status, code, ErrorClass] of cases) {
      stand = await startStandIn(() =>
        status === 400
          ? {
              status,
              body: {
                success: false,
                error: code,
                message: 'channelId: is required: this key is authorized for 2 channels',
              },
            }
          : failure(status, code, { 'retry-after': '3' }),
      );
      const error = await createClient({ baseUrl: stand.url, apiKey: 'k' })
        .workspace.labels.list()
        .catch((e: unknown) => e);
      expect(error, code).toBeInstanceOf(ErrorClass);
      expect(error, code).toBeInstanceOf(SwitchboardError);
      expect(error, code).toMatchObject({ name: ErrorClass.name, status, code });
      if (status === 400) expect((error as InvalidRequestError).param).toBe('channelId');
      if (status === 429) expect((error as RateLimitError).retryAfter).toBe(3);
      await stand.close();
      stand = undefined;
    }
  });

  it('reports a per-call timeout and an aborted signal as ApiConnectionError', async () => {
    stand = await startStandIn(() => 'never');
    const sb = createClient({ baseUrl: stand.url, apiKey: 'k' });
    const timedOut = await sb.workspace.channels.list({}, { timeout: 50 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(ApiConnectionError);
    expect(timedOut).toBeInstanceOf(SwitchboardError);
    expect(timedOut).toMatchObject({ status: 0, code: 'ECONNABORTED' });
    const controller = new AbortController();
    const pending = sb.workspace.channels.list({}, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'ApiConnectionError', status: 0, code: 'ERR_CANCELED' });
  });

  it('sends User-Agent switchboard-node/<package version>', async () => {
    stand = await startStandIn(() => ok([], { total: 0 }));
    await createClient({ baseUrl: stand.url, apiKey: 'k' }).workspace.channels.list();
    const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/client/package.json'), 'utf8')) as {
      version: string;
    };
    expect(stand.requests[0]!.headers['user-agent']).toBe(`switchboard-node/${version}`);
  });
});
