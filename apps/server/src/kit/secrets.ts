import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets at rest (a channel's access token, app secret, verify token): AES-256-GCM from node:crypto, which is the
 * well-kept implementation here; this file only fixes the format around it.
 *
 * Format: `v1.<keyId>.<iv>.<tag>.<data>`, each part base64url.
 * - `v1` lets a later format (or algorithm) be introduced without guessing what a stored value is.
 * - `keyId` is a short fingerprint of the key (HMAC of a fixed label, not the key itself), so "encrypted with another
 *   key" is told apart from "tampered with" and a start-up check can name the real problem.
 * - The optional `context` (e.g. `channel:<id>:accessToken`) is authenticated but not stored: a ciphertext copied into
 *   another row or column fails to decrypt instead of silently standing in for another secret.
 */

const FORMAT_VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 6;

export type SecretsKeyProblem = 'missing' | 'not_base64' | 'wrong_length';

/** The configured key cannot be used: a start-up error, never an HTTP one. */
export class SecretsKeyError extends Error {
  constructor(
    readonly problem: SecretsKeyProblem,
    message: string,
  ) {
    super(message);
    this.name = 'SecretsKeyError';
  }
}

export type SecretDecryptProblem = 'malformed' | 'unsupported_version' | 'wrong_key' | 'tampered';

/** A stored secret could not be opened. The message never contains the stored value or the plaintext. */
export class SecretDecryptError extends Error {
  constructor(
    readonly problem: SecretDecryptProblem,
    message: string,
  ) {
    super(message);
    this.name = 'SecretDecryptError';
  }
}

export interface SecretBox {
  /** Fingerprint of the key, as written into every ciphertext. */
  readonly keyId: string;
  /** Encrypts with the current key. */
  encrypt(plaintext: string, context?: string): string;
  /** Decrypts what the current key or one of the previous keys (SECRETS_KEY_PREVIOUS) encrypted. */
  decrypt(ciphertext: string, context?: string): string;
  /** The ciphertext encrypted again with the current key, or undefined when the current key already encrypted it. */
  reseal(ciphertext: string, context?: string): string | undefined;
  /**
   * A 32-byte key of its own for `purpose` (e.g. signing media links), derived with HKDF-SHA256: using it never
   * exposes this key, and keys for different purposes are unrelated.
   */
  deriveKey(purpose: string): Buffer;
  /** deriveKey of the current key, then of each previous key: what a signature made before a rotation may use. */
  deriveKeys(purpose: string): Buffer[];
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+$/;
const BASE64URL_PART = /^[A-Za-z0-9_-]*$/;

/** Parses a key given as base64 (or base64url) of exactly 32 bytes; `name` is how errors refer to it. */
export function parseSecretsKey(encoded: string | undefined, name = 'SECRETS_KEY'): Buffer {
  const trimmed = encoded?.trim() ?? '';
  if (trimmed === '') {
    throw new SecretsKeyError(
      'missing',
      `${name} is not set: it must be 32 random bytes in base64 (openssl rand -base64 32).`,
    );
  }
  if (!BASE64.test(trimmed)) {
    throw new SecretsKeyError(
      'not_base64',
      `${name} is not base64: it must be 32 random bytes in base64 (openssl rand -base64 32).`,
    );
  }
  // Node's base64 decoder reads both the standard and the URL-safe alphabet.
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new SecretsKeyError(
      'wrong_length',
      `${name} decodes to ${key.length} bytes; it must be exactly ${KEY_BYTES} (openssl rand -base64 32).`,
    );
  }
  return key;
}

function fingerprint(key: Buffer): string {
  return createHmac('sha256', key)
    .update('switchboard secrets key id')
    .digest()
    .subarray(0, KEY_ID_BYTES)
    .toString('base64url');
}

/** The `v1.<keyId>.<iv>.<tag>.<data>` parts of a stored secret; throws SecretDecryptError when it is not one. */
function partsOf(ciphertext: string) {
  const [version, ...parts] = ciphertext.split('.');
  if (version !== FORMAT_VERSION && /^v\d+$/.test(version ?? '')) {
    throw new SecretDecryptError(
      'unsupported_version',
      `Stored secret has format ${version}; this version reads ${FORMAT_VERSION}.`,
    );
  }
  const [keyId, iv, tag, data] = parts;
  if (
    version !== FORMAT_VERSION ||
    parts.length !== 4 ||
    !parts.every((part) => BASE64URL_PART.test(part)) ||
    keyId === undefined ||
    iv === undefined ||
    tag === undefined ||
    data === undefined
  ) {
    throw new SecretDecryptError(
      'malformed',
      `Stored secret is not in the ${FORMAT_VERSION}.<keyId>.<iv>.<tag>.<data> format.`,
    );
  }
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
    throw new SecretDecryptError('malformed', 'Stored secret has an IV or authentication tag of the wrong length.');
  }
  return { keyId, iv: ivBytes, tag: tagBytes, data: Buffer.from(data, 'base64url') };
}

function open(key: Buffer, { iv, tag, data }: ReturnType<typeof partsOf>, context: string): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptError(
      'tampered',
      'Stored secret failed authentication: it was altered or belongs to another record.',
    );
  }
}

/**
 * Encrypts with the key given as base64 (see parseSecretsKey for its errors) and decrypts what it or one of the
 * `previous` keys encrypted, told apart by the key id in each ciphertext: a key can be replaced without a moment
 * where stored secrets cannot be read (docs/operations.md, "Rotating SECRETS_KEY").
 */
export function createSecretBox(
  encodedKey: string | undefined,
  keyName = 'SECRETS_KEY',
  previous: readonly string[] = [],
): SecretBox {
  const key = parseSecretsKey(encodedKey, keyName);
  const keyId = fingerprint(key);
  const keys = [key, ...previous.map((encoded) => parseSecretsKey(encoded, `a key of ${keyName}_PREVIOUS`))];
  const byId = new Map(keys.map((each) => [fingerprint(each), each] as const));
  const derive = (from: Buffer, purpose: string) =>
    Buffer.from(hkdfSync('sha256', from, '', `switchboard ${purpose}`, KEY_BYTES));

  const box: SecretBox = {
    keyId,
    deriveKey: (purpose) => derive(key, purpose),
    deriveKeys: (purpose) => [...byId.values()].map((each) => derive(each, purpose)),
    encrypt(plaintext, context = '') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url'));
      return [FORMAT_VERSION, keyId, ...parts].join('.');
    },
    decrypt(ciphertext, context = '') {
      const parts = partsOf(ciphertext);
      const found = [...byId].find(([id]) => sameText(id, parts.keyId));
      if (!found) {
        throw new SecretDecryptError(
          'wrong_key',
          `Stored secret was encrypted with another key (id ${parts.keyId}; the configured key is ${keyId}` +
            `${byId.size > 1 ? `, the previous ${[...byId.keys()].slice(1).join(', ')}` : ''}).`,
        );
      }
      return open(found[1], parts, context);
    },
    reseal(ciphertext, context = '') {
      if (sameText(partsOf(ciphertext).keyId, keyId)) return undefined;
      return box.encrypt(box.decrypt(ciphertext, context), context);
    },
  };
  return box;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const SHOWN_TAIL = 4;
/** Below this length even the tail would give away too much of the secret. */
const MIN_LENGTH_TO_SHOW_TAIL = 16;

/** A log-safe stand-in for a secret: its last 4 characters when it is long enough to spare them, else nothing. */
export function redact(secret: string | null | undefined): string {
  if (!secret) return '[none]';
  if (secret.length < MIN_LENGTH_TO_SHOW_TAIL) return '[redacted]';
  return `[redacted …${secret.slice(-SHOWN_TAIL)}]`;
}
