import { randomInt } from 'node:crypto';

/** Crockford base32: no I, L, O, U, so a shortId read aloud or retyped is unambiguous. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function generateShortId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return `TK-${id}`;
}
