import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, parseSecretsKey, redact, SecretDecryptError, SecretsKeyError } from './secrets.js';

const KEY = randomBytes(32).toString('base64');
const TOKEN = 'EAAG' + 'x'.repeat(180);

function errorOf(run: () => unknown): SecretsKeyError | SecretDecryptError {
  try {
    run();
  } catch (error) {
    if (error instanceof SecretsKeyError || error instanceof SecretDecryptError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

const problemOf = (run: () => unknown) => errorOf(run).problem;

/** Flips one bit in the given base64url part of a ciphertext. */
function flipBit(ciphertext: string, partIndex: number): string {
  const parts = ciphertext.split('.');
  const bytes = Buffer.from(parts[partIndex]!, 'base64url');
  bytes[0] = bytes[0]! ^ 1;
  parts[partIndex] = bytes.toString('base64url');
  return parts.join('.');
}

describe('parseSecretsKey', () => {
  it('accepts 32 bytes in standard or URL-safe base64', () => {
    const raw = randomBytes(32);
    expect(parseSecretsKey(raw.toString('base64')).equals(raw)).toBe(true);
    expect(parseSecretsKey(raw.toString('base64url')).equals(raw)).toBe(true);
    expect(parseSecretsKey(`  ${raw.toString('base64')}\n`).equals(raw)).toBe(true);
  });

  it('names the problem with a missing, non-base64 or wrong-length key', () => {
    expect(problemOf(() => parseSecretsKey(undefined))).toBe('missing');
    expect(problemOf(() => parseSecretsKey('   '))).toBe('missing');
    expect(problemOf(() => parseSecretsKey('not base64 at all!'))).toBe('not_base64');
    expect(problemOf(() => parseSecretsKey(randomBytes(16).toString('base64')))).toBe('wrong_length');
    expect(problemOf(() => parseSecretsKey(randomBytes(33).toString('base64')))).toBe('wrong_length');
    expect(() => parseSecretsKey(randomBytes(31).toString('base64'), 'MY_KEY')).toThrow(/MY_KEY decodes to 31 bytes/);
  });
});

describe('createSecretBox', () => {
  const box = createSecretBox(KEY);

  it('round-trips text, including empty and non-ASCII secrets', () => {
    for (const secret of [TOKEN, '', 'ünïcødé ✓', 'a'.repeat(10_000)]) {
      expect(box.decrypt(box.encrypt(secret))).toBe(secret);
    }
  });

  it('writes the versioned format and never the plaintext', () => {
    const ciphertext = box.encrypt(TOKEN);
    expect(ciphertext).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(ciphertext.split('.')[1]).toBe(box.keyId);
    expect(ciphertext).not.toContain(TOKEN.slice(0, 20));
    expect(box.encrypt(TOKEN)).not.toBe(ciphertext);
  });

  it('binds a ciphertext to its context', () => {
    const ciphertext = box.encrypt(TOKEN, 'channel:1:accessToken');
    expect(box.decrypt(ciphertext, 'channel:1:accessToken')).toBe(TOKEN);
    expect(problemOf(() => box.decrypt(ciphertext, 'channel:2:accessToken'))).toBe('tampered');
    expect(problemOf(() => box.decrypt(ciphertext))).toBe('tampered');
  });

  it('tells a ciphertext from another key apart from a tampered one', () => {
    const other = createSecretBox(randomBytes(32).toString('base64'));
    expect(other.keyId).not.toBe(box.keyId);
    expect(problemOf(() => other.decrypt(box.encrypt(TOKEN)))).toBe('wrong_key');
    const ciphertext = box.encrypt(TOKEN);
    for (const part of [2, 3, 4]) expect(problemOf(() => box.decrypt(flipBit(ciphertext, part)))).toBe('tampered');
  });

  it('derives keys per purpose: stable for one key, unrelated across purposes and keys', () => {
    const links = box.deriveKey('media links');
    expect(links).toHaveLength(32);
    expect(createSecretBox(KEY).deriveKey('media links').equals(links)).toBe(true);
    expect(box.deriveKey('other').equals(links)).toBe(false);
    expect(createSecretBox(randomBytes(32).toString('base64')).deriveKey('media links').equals(links)).toBe(false);
    expect(links.equals(Buffer.from(KEY, 'base64'))).toBe(false);
  });

  it('refuses malformed and future-format values without echoing them', () => {
    const ciphertext = box.encrypt(TOKEN);
    expect(problemOf(() => box.decrypt(TOKEN))).toBe('malformed');
    expect(problemOf(() => box.decrypt(ciphertext.split('.').slice(0, 4).join('.')))).toBe('malformed');
    expect(problemOf(() => box.decrypt(`${ciphertext}.extra`))).toBe('malformed');
    expect(problemOf(() => box.decrypt(ciphertext.replace(/\.[^.]+$/, '.not*base64')))).toBe('malformed');
    expect(problemOf(() => box.decrypt(ciphertext.replace(/^v1/, 'v2')))).toBe('unsupported_version');
    const [version, keyId, , tag, data] = ciphertext.split('.');
    expect(problemOf(() => box.decrypt([version, keyId, 'AAAA', tag, data].join('.')))).toBe('malformed');
    const error = errorOf(() => box.decrypt(`v1.${box.keyId}.${TOKEN}.${TOKEN}.${TOKEN}`));
    expect(error.problem).toBe('malformed');
    expect(error.message).not.toContain(TOKEN.slice(0, 8));
  });
});

describe('redact', () => {
  it('keeps at most the last four characters of long secrets and nothing of short ones', () => {
    expect(redact(TOKEN)).toBe('[redacted …xxxx]');
    expect(redact('short-secret')).toBe('[redacted]');
    expect(redact('')).toBe('[none]');
    expect(redact(undefined)).toBe('[none]');
    expect(redact(TOKEN)).not.toContain(TOKEN.slice(0, 8));
  });
});

describe('rotating the key', () => {
  const OLD = randomBytes(32).toString('base64');
  const NEW = randomBytes(32).toString('base64');
  const before = createSecretBox(OLD);
  const after = createSecretBox(NEW, 'SECRETS_KEY', [randomBytes(32).toString('base64'), OLD]);

  it('decrypts with a previous key, encrypts with the current one', () => {
    const stored = before.encrypt(TOKEN, 'channel:1:accessToken');
    expect(after.decrypt(stored, 'channel:1:accessToken')).toBe(TOKEN);
    expect(after.encrypt(TOKEN).split('.')[1]).toBe(after.keyId);
    expect(problemOf(() => after.decrypt(stored, 'channel:2:accessToken'))).toBe('tampered');
    expect(problemOf(() => createSecretBox(NEW).decrypt(stored))).toBe('wrong_key');
  });

  it('reseals what a previous key encrypted, and leaves current values alone', () => {
    const resealed = after.reseal(before.encrypt(TOKEN, 'ctx'), 'ctx')!;
    expect(resealed.split('.')[1]).toBe(after.keyId);
    expect(createSecretBox(NEW).decrypt(resealed, 'ctx')).toBe(TOKEN);
    expect(after.reseal(resealed, 'ctx')).toBeUndefined();
  });

  it('derives the current purpose key first, then the previous ones', () => {
    const keys = after.deriveKeys('media links');
    expect(keys).toHaveLength(3);
    expect(keys[0]!.equals(after.deriveKey('media links'))).toBe(true);
    expect(keys[2]!.equals(before.deriveKey('media links'))).toBe(true);
  });

  it('names a previous key that is not a key', () => {
    expect(errorOf(() => createSecretBox(NEW, 'SECRETS_KEY', ['short'])).message).toMatch(
      /a key of SECRETS_KEY_PREVIOUS/,
    );
  });
});
