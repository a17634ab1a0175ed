import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password.js';

// A hash costs ~128 MiB and up to seconds of CPU on a loaded machine.
describe('password hashing', { timeout: 60_000 }, () => {
  it('hashes with OWASP’s scrypt parameters (N=2^17, r=8, p=1); verifies the right password only', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(needsRehash(stored)).toBe(false);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
  });

  it('keeps verifying hashes made with older parameters, which need a rehash', async () => {
    // As hashes were made before issue #22: N=16384.
    const salt = Buffer.from('a salt of 16 byt');
    const hash = scryptSync('old password', salt, 32, { N: 16384, r: 8, p: 1 });
    const legacy = `scrypt$16384$8$1$${salt.toString('base64')}$${hash.toString('base64')}`;
    expect(await verifyPassword('old password', legacy)).toBe(true);
    expect(await verifyPassword('other password', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
  });

  it('salts every hash and rejects missing, foreign or absurd hashes', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', '$2b$10$abc')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1099511627776$8$1$c2FsdA==$aGFzaA==')).toBe(false);
  });
});
