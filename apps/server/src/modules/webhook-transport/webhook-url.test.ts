import { describe, expect, it } from 'vitest';
import type { ResolveAll } from './destination.js';
import { assertWebhookUrl, resolveWithin } from './webhook-url.js';

const STRICT = { allowLocal: false };
const resolvesTo =
  (...addresses: string[]): ResolveAll =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const unresolvable: ResolveAll = async () => {
  throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
};

describe('assertWebhookUrl (at create and update time)', () => {
  it.each([
    ['10.0.0.5', 'private'],
    ['127.0.0.2', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['::1', 'loopback'],
  ])('refuses a hostname resolving to %s, naming url', async (address, range) => {
    await expect(
      assertWebhookUrl('https://hooks.example.com/x', STRICT, resolvesTo('93.184.216.34', address)),
    ).rejects.toMatchObject({
      issues: [
        {
          field: 'url',
          problem: `hooks.example.com resolves to a non-public address (${address} is a ${range} address)`,
        },
      ],
    });
  });

  it('accepts a public destination and a host that does not resolve (yet): deliveries check again', async () => {
    await expect(
      assertWebhookUrl('https://hooks.example.com/x', STRICT, resolvesTo('93.184.216.34')),
    ).resolves.toBeUndefined();
    await expect(assertWebhookUrl('https://hooks.example.com/x', STRICT, unresolvable)).resolves.toBeUndefined();
  });

  it('refuses the scheme before asking DNS', async () => {
    await expect(
      assertWebhookUrl('http://hooks.example.com/x', STRICT, resolvesTo('93.184.216.34')),
    ).rejects.toMatchObject({
      issues: [{ field: 'url', problem: 'http:// is not allowed; use https://' }],
    });
  });
});

describe('resolveWithin', () => {
  it('fails a lookup that does not answer in time, and passes one that does', async () => {
    const never: ResolveAll = () => new Promise(() => undefined);
    await expect(resolveWithin(never, 20)('slow.example.com')).rejects.toThrow(
      'no DNS answer for slow.example.com within 20 ms',
    );
    await expect(resolveWithin(resolvesTo('93.184.216.34'), 1000)('fast.example.com')).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
  });
});
