import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, hashesMatch, isWellFormedApiKey } from './api-key-crypto.js';

describe('API key crypto', () => {
  it('generates well-formed 256-bit keys with a listable prefix', () => {
    const { apiKey, prefix, keyHash } = generateApiKey();
    expect(isWellFormedApiKey(apiKey)).toBe(true);
    expect(Buffer.from(apiKey.slice('sb_live_'.length), 'base64url')).toHaveLength(32);
    expect(prefix).toBe(displayPrefix(apiKey));
    expect(prefix).toHaveLength(16);
    expect(keyHash).toBe(hashApiKey(apiKey));
    expect(keyHash).not.toContain(apiKey.slice(8));
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().apiKey));
    expect(keys.size).toBe(1000);
  });

  it('matches only the key that produced the hash', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(hashesMatch(a.keyHash, a.apiKey)).toBe(true);
    expect(hashesMatch(a.keyHash, b.apiKey)).toBe(false);
  });

  it('rejects malformed keys', () => {
    expect(isWellFormedApiKey('sb_live_short')).toBe(false);
    expect(isWellFormedApiKey(`sb_test_${'a'.repeat(43)}`)).toBe(false);
    expect(isWellFormedApiKey(`sb_live_${'a'.repeat(42)}!`)).toBe(false);
  });
});
