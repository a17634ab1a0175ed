import {
  ApiConnectionError,
  AuthenticationError,
  createClient,
  IdempotencyError,
  InvalidRequestError,
  isSwitchboardError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SwitchboardError,
} from '@switchboard/client';
import { contract, contractEndpoints } from '@switchboard/contract';
import axios from 'axios';
import { createRequire } from 'node:module';
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

/** No retries: each case checks the error of one reply. */
const client = (baseUrl: string) => createClient({ baseUrl, apiKey: 'k', maxRetries: 0 });

describe('SDK requests and errors', () => {
  let stand: StandIn | undefined;
  afterEach(() => stand?.close());

  it('has one method per contract endpoint, placed like the path, sending the example to that path', async () => {
    stand = await startStandIn(() => ok({}));
    const sb = client(stand.url);
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
    const error = await client(stand.url)
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
    const error = await client(stand.url)
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
    const error = await client(stand.url)
      .workspace.labels.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({
      status: 400,
      code: 'http_400',
      rawCode: 'brand_new_code',
      message: 'limit: too new',
      param: 'limit',
    });
  });

  it('reports an unreachable server as status 0 with the network error code', async () => {
    stand = await startStandIn(() => ok(null));
    const url = stand.url;
    await stand.close();
    stand = undefined;
    const error = await client(url)
      .workspace.channels.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toMatchObject({ name: 'ApiConnectionError', status: 0, code: 'network', requestId: undefined });
    expect((error as ApiConnectionError).message).toBe('The server could not be reached (ECONNREFUSED)');
    expect((error as ApiConnectionError).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect((error as ApiConnectionError).response).toBeUndefined();
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
      const error = await client(stand.url)
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
    const sb = client(stand.url);
    const timedOut = await sb.workspace.channels.list({}, { timeout: 50 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(ApiConnectionError);
    expect(timedOut).toBeInstanceOf(SwitchboardError);
    expect(timedOut).toMatchObject({
      status: 0,
      code: 'timeout',
      message: expect.stringContaining('No reply within 50 ms'),
    });
    const controller = new AbortController();
    const pending = sb.workspace.channels.list({}, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await pending).toMatchObject({
      name: 'ApiConnectionError',
      status: 0,
      code: 'aborted',
      message: 'The request was aborted',
    });
  });

  it('names Idempotency-Key as `param` of its errors: malformed (400), reused (422), in progress (409)', async () => {
    const replies = [
      {
        status: 400,
        error: 'invalid_request',
        message: 'Idempotency-Key: must be 1 to 255 printable ASCII characters',
      },
      { status: 422, error: 'idempotency_key_reused', message: 'This Idempotency-Key was already used' },
      { status: 409, error: 'idempotency_key_in_progress', message: 'A request with this Idempotency-Key is running' },
    ];
    stand = await startStandIn((_, i) => ({ status: replies[i]!.status, body: { success: false, ...replies[i] } }));
    const sb = client(stand.url);
    const errors = [];
    for (const _ of replies) errors.push(await sb.workspace.labels.manage({ name: 'vip' }).catch((e: unknown) => e));
    expect(errors[0]).toBeInstanceOf(InvalidRequestError);
    expect(errors[1]).toBeInstanceOf(IdempotencyError);
    expect(errors[2]).toBeInstanceOf(IdempotencyError);
    expect(errors.map((e) => (e as SwitchboardError).param)).toEqual(Array(3).fill('Idempotency-Key'));
    expect(errors.map((e) => (e as SwitchboardError).rawCode)).toEqual(replies.map((reply) => reply.error));
  });

  it('makes errors instances of their classes across the ESM and CommonJS builds (dual-package hazard)', async () => {
    stand = await startStandIn(() => failure(429, 'rate_limited'));
    // The CommonJS build is a second copy of every class, as in an app that imports the SDK while a library requires
    // it.
    const cjs = createRequire(import.meta.url)(path.join(REPO_ROOT, 'packages/client/dist/index.cjs')) as {
      createClient: typeof createClient;
      RateLimitError: typeof RateLimitError;
      SwitchboardError: typeof SwitchboardError;
    };
    const fromCjs = await cjs
      .createClient({ baseUrl: stand.url, apiKey: 'k', maxRetries: 0 })
      .workspace.labels.list()
      .catch((e: unknown) => e);
    const fromEsm = await client(stand.url)
      .workspace.labels.list()
      .catch((e: unknown) => e);
    for (const error of [fromCjs, fromEsm]) {
      expect(error instanceof SwitchboardError && error instanceof RateLimitError).toBe(true);
      expect(error instanceof cjs.SwitchboardError && error instanceof cjs.RateLimitError).toBe(true);
      expect(isSwitchboardError(error)).toBe(true);
      expect(error instanceof NotFoundError).toBe(false);
    }
    expect(isSwitchboardError(new Error('plain'))).toBe(false);
    class MyError extends SwitchboardError {}
    expect(fromEsm instanceof MyError).toBe(false);
  });
});
