import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt from node:crypto: memory-hard, no native addon to build. Stored as `scrypt$N$r$p$salt$hash`, so a hash
 * keeps the parameters it was made with and older ones still verify. OWASP's minimum for scrypt: N=2^17, r=8, p=1.
 */
const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** Hashes above these are refused outright rather than computed (a stored hash must not be able to exhaust memory). */
const MAX_N = 2 ** 20;
const MAX_R = 16;

/** scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is below that at N=2^17, r=8 (128 MiB). */
const memoryFor = (options: { N: number; r: number; p: number }) => 128 * options.N * options.r * (options.p + 1);

function scrypt(password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number; p: number }) {
  return new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, { ...options, maxmem: memoryFor(options) }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string | null | undefined): StoredHash | undefined {
  const parts = stored?.split('$');
  if (!parts || parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every(Number.isSafeInteger) || N > MAX_N || r > MAX_R || p !== 1) return undefined;
  return { N, r, p, salt: Buffer.from(parts[4]!, 'base64'), hash: Buffer.from(parts[5]!, 'base64') };
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await scrypt(password, parsed.salt, parsed).catch(() => undefined);
  return actual !== undefined && actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/** Whether a stored hash was made with other parameters than today's: rehash it at the next successful sign-in. */
export function needsRehash(stored: string | null | undefined): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.N !== PARAMS.N || parsed.r !== PARAMS.r || parsed.p !== PARAMS.p;
}
