import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const API_KEY_PREFIX = 'sb_live_';
/** `sb_live_` + 43 base64url characters = 256 random bits. */
const API_KEY_PATTERN = /^sb_live_[A-Za-z0-9_-]{43}$/;
/** Characters kept as the public, listable part of a key (`sb_live_` + 8). */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export interface GeneratedKey {
  apiKey: string;
  prefix: string;
  keyHash: string;
}

/** One-shot `crypto.hash`: it runs on every request's key and beats a createHash() chain (docs/benchmarks.md). */
export function hashApiKey(apiKey: string): string {
  return hash('sha256', apiKey, 'hex');
}

export function generateApiKey(): GeneratedKey {
  const apiKey = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { apiKey, prefix: apiKey.slice(0, DISPLAY_PREFIX_LENGTH), keyHash: hashApiKey(apiKey) };
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

export function displayPrefix(apiKey: string): string {
  return apiKey.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** SHA-256 is right for 256-bit random secrets (no brute force to slow down); compare without timing leaks. */
export function hashesMatch(storedHex: string, presentedKey: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const presented = Buffer.from(hashApiKey(presentedKey), 'hex');
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}

/** Does this value look like one of our keys? Used to refuse keys sent where they leak (query, body). */
export function containsApiKey(value: string): boolean {
  return value.includes(API_KEY_PREFIX);
}
