import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../kit/errors.js';
import { fetchHeaderSample } from './header-sample.js';

const STRICT = { allowLocal: false };

async function refusal(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).message;
}

// The request forgery guard, before any connection: these hosts are never contacted.
describe('fetchHeaderSample', () => {
  it('refuses a host that resolves to a private address, naming header.mediaUrl', async () => {
    const resolve = async () => [{ address: '10.1.2.3', family: 4 }];
    const message = await refusal(
      fetchHeaderSample('https://files.acme.test/a.png', 'image', { policy: STRICT, timeoutMs: 1000, resolve }),
    );
    expect(message).toBe(
      'header.mediaUrl: files.acme.test resolves to a non-public address (10.1.2.3 is a private address)',
    );
  });

  it('refuses a host that does not resolve', async () => {
    const resolve = () => Promise.reject(new Error('ENOTFOUND'));
    expect(
      await refusal(
        fetchHeaderSample('https://nowhere.acme.test/a.png', 'image', { policy: STRICT, timeoutMs: 1000, resolve }),
      ),
    ).toBe('header.mediaUrl: could not be fetched: its host name does not resolve');
  });
});
