import { describe, expect, it } from 'vitest';
import { graphFailureError, graphUnexpectedReplyError, graphUnreachableError } from './graph-errors.js';

const TOKEN = 'EAAGsecretToken1234567890';

function failure(
  httpStatus: number,
  code: number | undefined,
  extra: Record<string, unknown> = {},
  retryAfter?: string,
) {
  const body =
    code === undefined
      ? undefined
      : { error: { message: `Graph says ${code}`, type: 'OAuthException', code, fbtrace_id: 'A1', ...extra } };
  return graphFailureError({
    operation: 'sending the template message',
    httpStatus,
    body,
    retryAfter,
    accessToken: TOKEN,
  });
}

describe('Graph error mapping', () => {
  it.each([
    [401, 190, 502, 'provider_unauthorized'],
    [400, 190, 502, 'provider_unauthorized'],
    [403, 10, 502, 'provider_unauthorized'],
    [403, 200, 502, 'provider_unauthorized'],
    [400, 299, 502, 'provider_unauthorized'],
    [401, 999, 502, 'provider_unauthorized'],
    [400, 100, 400, 'provider_rejected'],
    [400, 131026, 400, 'provider_rejected'],
    [400, 131047, 400, 'provider_rejected'],
    [400, 132000, 400, 'provider_rejected'],
    [404, 132001, 400, 'provider_rejected'],
    [400, 424242, 400, 'provider_rejected'],
    [400, 131056, 503, 'provider_unavailable'],
    [429, 130429, 503, 'provider_unavailable'],
    [429, 999, 503, 'provider_unavailable'],
    [500, 131000, 503, 'provider_unavailable'],
    [503, 2, 503, 'provider_unavailable'],
    [500, 1, 503, 'provider_unavailable'],
    [502, 100, 503, 'provider_unavailable'],
  ])('HTTP %i with code %i → %i %s', (httpStatus, code, status, errorCode) => {
    const error = failure(httpStatus, code);
    expect([error.status, error.code]).toEqual([status, errorCode]);
    expect(error.message).toContain(`code ${code}`);
    expect(error.message).toContain(`Graph says ${code}`);
  });

  it('gives Retry-After on every unavailable error: Graph’s own, else 60 s for rate limits and 30 s otherwise', () => {
    expect(failure(429, 130429).headers).toEqual({ 'Retry-After': '60' });
    expect(failure(429, 130429, {}, '7').headers).toEqual({ 'Retry-After': '7' });
    expect(failure(503, 2).headers).toEqual({ 'Retry-After': '30' });
    expect(failure(503, 2, {}, 'soon').headers).toEqual({ 'Retry-After': '30' });
    expect(failure(503, 2, {}, '999999').headers).toEqual({ 'Retry-After': '3600' });
    expect(failure(502, undefined).headers).toEqual({ 'Retry-After': '30' });
    expect(graphUnreachableError('listing the templates', true).headers).toEqual({ 'Retry-After': '30' });
    expect(graphUnexpectedReplyError('listing the templates').headers).toEqual({ 'Retry-After': '30' });
    expect(failure(400, 100).headers).toEqual({});
  });

  it('quotes Meta’s code, subcode and details but never the access token', () => {
    const error = failure(400, 132001, {
      message: `Template name does not exist (token ${TOKEN})`,
      error_subcode: 2494073,
      error_data: { messaging_product: 'whatsapp', details: 'template name (order_updat) does not exist in en_US' },
    });
    expect(error.message).toBe(
      'WhatsApp Cloud API rejected the request while sending the template message: Template name does not exist ' +
        '(token [redacted]) — template name (order_updat) does not exist in en_US (code 132001, subcode 2494073)',
    );
    expect(error.message).not.toContain(TOKEN);
  });

  it.each([
    [429, 130429, true],
    [400, 131056, true],
    [429, 131048, false],
    [400, 132015, false],
    [500, 131000, false],
  ])('HTTP %i with code %i carries the code as a field, throttled: %s', (httpStatus, code, throttled) => {
    const error = failure(httpStatus, code);
    expect([error.providerCode, error.throttled]).toEqual([code, throttled]);
  });

  it('carries no code when Graph gave none', () => {
    const errors = [failure(404, undefined), graphUnreachableError('sending', true), graphUnexpectedReplyError('x')];
    for (const error of errors) expect([error.providerCode, error.throttled]).toEqual([null, false]);
  });

  it('treats a reply without Graph’s error shape as the service being unavailable', () => {
    const error = failure(404, undefined);
    expect([error.status, error.code, error.message]).toEqual([
      503,
      'provider_unavailable',
      'WhatsApp Cloud API answered HTTP 404 without a Graph error while sending the template message.',
    ]);
  });

  it('says whether an unreachable Graph timed out or refused the connection', () => {
    expect(graphUnreachableError('checking the phone number', true).message).toBe(
      'WhatsApp Cloud API did not answer in time while checking the phone number.',
    );
    expect(graphUnreachableError('checking the phone number', false, 'ECONNREFUSED').message).toBe(
      'WhatsApp Cloud API could not be reached (ECONNREFUSED) while checking the phone number.',
    );
  });
});
