import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MEDIA_LINK_TTL_SECONDS, signMediaLink, verifyMediaLink } from './media-link.js';

const KEY = randomBytes(32);
const MESSAGE = randomUUID();
const NOW = new Date('2026-11-26T14:00:00.000Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

/** The token with one character of part `index` changed. */
function alter(token: string, index: number) {
  const parts = token.split('.');
  const part = parts[index]!;
  const last = part.at(-1)!;
  parts[index] = part.slice(0, -1) + (last === '0' ? '1' : last === 'A' ? 'B' : '0');
  return parts.join('.');
}

describe('media links', () => {
  it('is valid for five minutes, for the message it was signed for', () => {
    const { token, expiresAt } = signMediaLink(KEY, MESSAGE, NOW);
    expect(MEDIA_LINK_TTL_SECONDS).toBe(300);
    expect(expiresAt.toISOString()).toBe('2026-11-26T14:05:00.000Z');
    expect(token).toMatch(/^[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyMediaLink(KEY, token, NOW)).toBe(MESSAGE);
    expect(verifyMediaLink(KEY, token, later(299))).toBe(MESSAGE);
    expect(verifyMediaLink(KEY, token, later(300))).toBeUndefined();
    expect(verifyMediaLink(KEY, token, later(86_400))).toBeUndefined();
  });

  it('refuses a token altered anywhere, moved to another message, extended, or signed with another key', () => {
    const { token } = signMediaLink(KEY, MESSAGE, NOW);
    for (const index of [0, 1, 2]) expect(verifyMediaLink(KEY, alter(token, index), NOW)).toBeUndefined();
    const [, expires, signed] = token.split('.');
    expect(verifyMediaLink(KEY, `${randomUUID()}.${expires}.${signed}`, NOW)).toBeUndefined();
    expect(verifyMediaLink(KEY, `${MESSAGE}.${Number(expires) + 3600}.${signed}`, NOW)).toBeUndefined();
    expect(verifyMediaLink(randomBytes(32), token, NOW)).toBeUndefined();
    const otherKeys = signMediaLink(randomBytes(32), MESSAGE, NOW).token;
    expect(verifyMediaLink(KEY, otherKeys, NOW)).toBeUndefined();
  });

  it('refuses malformed tokens without throwing', () => {
    const { token } = signMediaLink(KEY, MESSAGE, NOW);
    for (const bad of ['', '.', '..', 'x.y.z', `${token}.extra`, token.slice(0, -1), `${MESSAGE}.-1.${'a'.repeat(43)}`])
      expect(verifyMediaLink(KEY, bad, NOW)).toBeUndefined();
  });
});

describe('media links across a key rotation', () => {
  it('open with any of the keys given, the current one first', () => {
    const previous = randomBytes(32);
    const { token } = signMediaLink(previous, MESSAGE, NOW);
    expect(verifyMediaLink([KEY, previous], token, NOW)).toBe(MESSAGE);
    expect(verifyMediaLink([KEY], token, NOW)).toBeUndefined();
  });
});
