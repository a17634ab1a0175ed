import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_HEADER_VALUE = /^sha256=([0-9a-fA-F]{64})$/;

/** `sha256=<hex>`: what Meta sends in `X-Hub-Signature-256` for this exact body. */
export function webhookSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * Checks Meta's `X-Hub-Signature-256` over the exact bytes received (a re-serialised JSON body would not match),
 * in constant time. A missing, repeated or malformed header is simply not valid.
 */
export function isValidWebhookSignature(
  rawBody: Buffer,
  header: string | string[] | undefined,
  appSecret: string,
): boolean {
  if (typeof header !== 'string' || appSecret === '') return false;
  const presented = SIGNATURE_HEADER_VALUE.exec(header.trim())?.[1];
  if (presented === undefined) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(presented, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Compares a presented secret (Meta's `hub.verify_token`) with the stored one in constant time, whatever the lengths.
 */
export function isSameSecret(presented: string, stored: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(stored)) && stored !== '';
}
