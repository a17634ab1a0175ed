import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { expect } from 'vitest';
import { test as base } from '../helpers/test.js';
import { connectChannel, SECRETS_KEY } from '../whatsapp-inbound/inbound-fixture.js';

/**
 * Meta's webhook endpoint refuses what it can before reading a body (issue #31): an unknown channel, a POST without
 * `X-Hub-Signature-256`, an address out of failures; an oversized body is a failure too.
 */
const test = base.extend('whatsapp', { scope: 'file' }, async ({ server, acme }) =>
  connectChannel({ em: server.database.orm.em.fork() }, acme.mainChannelId),
);
test.override('serverEnv', { SECRETS_KEY });

/**
 * Sends a POST's headers announcing `bytes` of body and no body at all: resolves with the status when the server
 * answers without waiting for it, or 'waiting' if it is still reading after `patienceMs`.
 */
function headersOnly(
  baseUrl: string,
  channelId: string,
  bytes: number,
  headers: Record<string, string> = {},
  patienceMs = 5000,
): Promise<number | 'waiting'> {
  const url = new URL(`/webhooks/whatsapp/${channelId}`, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(bytes), ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve('waiting');
    }, patienceMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      req.destroy();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

const SIGNED = { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };

test(
  'refuses an unknown channel and an unsigned POST before reading the body',
  { timeout: 120_000 },
  async ({ server, whatsapp }) => {
    expect(await headersOnly(server.baseUrl, randomUUID(), 4_000_000, SIGNED)).toBe(401);
    expect(await headersOnly(server.baseUrl, whatsapp.channelId, 4_000_000)).toBe(401);
    // A signed POST to the connected channel is read (and then judged on its bytes).
    expect(await headersOnly(server.baseUrl, whatsapp.channelId, 4_000_000, SIGNED, 1500)).toBe('waiting');
  },
);

test(
  'counts bodies over the limit against the address: its budget spent, the next POST is a 429',
  {
    timeout: 120_000,
  },
  async ({ server, whatsapp }) => {
    const oversized = Buffer.alloc(5 * 1024 * 1024 + 1, 0x20);
    const post = async () =>
      (
        await fetch(`${server.baseUrl}/webhooks/whatsapp/${whatsapp.channelId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...SIGNED },
          body: oversized,
        })
      ).status;
    const statuses: number[] = [];
    for (let n = 0; n < 31 && !statuses.includes(429); n++) statuses.push(await post());
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([413]));
  },
);
