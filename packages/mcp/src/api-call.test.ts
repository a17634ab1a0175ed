import { describe, expect, it } from 'vitest';
import { failureOf, resultOf } from './api-call.js';

describe('tool results from API replies', () => {
  it('takes the success envelope without `success`', () => {
    const body = { success: true, data: [1], pagination: { page: 1 }, message: 'ok' };
    expect(resultOf({ status: 200, body })).toEqual({ data: [1], pagination: { page: 1 }, message: 'ok' });
  });

  it('is no result for a failure, a non-2xx or a body that is not the envelope', () => {
    expect(resultOf({ status: 400, body: { success: false, error: 'invalid_request', message: 'x' } })).toBeUndefined();
    expect(resultOf({ status: 500, body: { success: true, data: 1 } })).toBeUndefined();
    expect(resultOf({ status: 200, body: 'text' })).toBeUndefined();
  });

  it('reports a failure as the envelope’s code and message, with Retry-After when given', () => {
    const body = { success: false, error: 'rate_limited', message: 'Retry after 7 s.' };
    expect(failureOf({ status: 429, body, retryAfterSeconds: 7 })).toEqual({
      error: 'rate_limited',
      message: 'Retry after 7 s.',
      retryAfterSeconds: 7,
    });
    expect(failureOf({ status: 502, body: '<html>' })).toEqual({
      error: 'unexpected_reply',
      message: 'The API answered 502 without its envelope.',
    });
  });
});
