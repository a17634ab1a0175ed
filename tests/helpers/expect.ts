import { SwitchboardError } from '@switchboard/client';
import type { AxiosResponse } from 'axios';
import { expect } from 'vitest';

/** Awaits a call that must fail and checks status, error code and (optionally) the message. */
export async function expectError(
  call: Promise<unknown>,
  status: number,
  code: string,
  message?: string | RegExp,
): Promise<SwitchboardError> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected ${status} ${code}, got success: ${JSON.stringify(value).slice(0, 300)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SwitchboardError);
  const failure = error as SwitchboardError;
  expect({ status: failure.status, code: failure.code }).toEqual({ status, code });
  if (message !== undefined) expect(failure.message).toMatch(message);
  expect(failure.requestId).toBeTruthy();
  return failure;
}

export const expectUnauthorized = (call: Promise<unknown>, message?: string | RegExp) =>
  expectError(call, 401, 'unauthorized', message);

export const expectForbidden = (call: Promise<unknown>, message?: string | RegExp) =>
  expectError(call, 403, 'forbidden', message);

/** A 400 whose message names `field` and why. */
export const expectInvalid = (call: Promise<unknown>, field: string, why?: string | RegExp) =>
  expectError(
    call,
    400,
    'invalid_request',
    why ? new RegExp(`${field}: .*${why instanceof RegExp ? why.source : why}`) : new RegExp(`${field}: `),
  );

/** Another tenant's key must get 403 for this call, and the reply must not leak the resource. */
export const expectForbiddenForOtherTenant = async (call: Promise<unknown>) => {
  const failure = await expectForbidden(call);
  expect(failure.message).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  return failure;
};

/** A raw reply in the failure envelope: exactly `{success: false, error, message}`. */
export function expectEnvelopeError(reply: AxiosResponse, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/application\/json/);
  expect(reply.data).toEqual({ success: false, error: code, message: expect.any(String) });
  expect(reply.headers['x-request-id']).toBeTruthy();
  expect(JSON.stringify(reply.data)).not.toMatch(/\bat .*\.js:\d+|select |insert |stack/i);
}
