import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed token of a media link (`{PUBLIC_URL}/media/<token>`): `<message id>.<expiry>.<signature>`, the message's
 * row id (a UUID) and the expiry in Unix milliseconds (so each chat/media/get gives a new link with opens of its
 * own), signed with HMAC-SHA256 (node:crypto) under a key derived from
 * SECRETS_KEY. Changing either part breaks the signature, so a link cannot be made for another message, extended,
 * or forged without the key; nothing in it is secret or names the provider.
 */

/** How long a link stays valid: the life of the URL Meta hands out for a file, which each fetch asks for anew. */
export const MEDIA_LINK_TTL_SECONDS = 300;
/** How often one link may be opened: each open fetches the file from the provider with the tenant's credentials. */
export const MEDIA_LINK_MAX_OPENS = 30;

const VERSION = 'm1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

const signature = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(`${VERSION}.${payload}`).digest('base64url');

export interface MediaLink {
  token: string;
  expiresAt: Date;
}

/** A token for the message's file, valid until `now` + the TTL. */
export function signMediaLink(
  key: Buffer,
  messageId: string,
  now: Date,
  ttlSeconds = MEDIA_LINK_TTL_SECONDS,
): MediaLink {
  const expires = now.getTime() + ttlSeconds * 1000;
  const payload = `${messageId}.${expires}`;
  return { token: `${payload}.${signature(key, payload)}`, expiresAt: new Date(expires) };
}

/** When a token expires, as it says (its signature not checked). */
export const mediaLinkExpiry = (token: string) => new Date(Number(token.split('.')[1]));

/**
 * The message id a token was signed for, or undefined when it is malformed, altered, signed elsewhere or expired.
 * `keys`: the current signing key, then those of SECRETS_KEY_PREVIOUS, so links signed before a rotation still open.
 */
export function verifyMediaLink(keys: Buffer | readonly Buffer[], token: string, now: Date): string | undefined {
  const [messageId, expires, signed, ...rest] = token.split('.');
  if (rest.length > 0 || !messageId || !UUID.test(messageId) || !expires || !/^\d{1,15}$/.test(expires)) return;
  if (!signed || !SIGNATURE.test(signed)) return;
  const signedBy = (key: Buffer) =>
    timingSafeEqual(Buffer.from(signature(key, `${messageId}.${expires}`)), Buffer.from(signed));
  if (![keys].flat().some(signedBy)) return;
  return Number(expires) > now.getTime() ? messageId : undefined;
}
