import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSameSecret, isValidWebhookSignature, webhookSignature } from './webhook-signature.js';

const SECRET = 'app-secret-0123456789abcdef';
const BODY = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

describe('webhook signature', () => {
  it('computes Meta’s sha256=<hex HMAC> of the raw body', () => {
    expect(webhookSignature(BODY, SECRET)).toBe(`sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`);
  });

  it('accepts the signature of the exact bytes, in either hex case', () => {
    const signature = webhookSignature(BODY, SECRET);
    expect(isValidWebhookSignature(BODY, signature, SECRET)).toBe(true);
    expect(isValidWebhookSignature(BODY, `sha256=${signature.slice(7).toUpperCase()}`, SECRET)).toBe(true);
  });

  it('refuses other bytes, another secret, and malformed or missing headers', () => {
    const signature = webhookSignature(BODY, SECRET);
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 1));
    expect(isValidWebhookSignature(reformatted, signature, SECRET)).toBe(false);
    expect(isValidWebhookSignature(Buffer.concat([BODY, Buffer.from(' ')]), signature, SECRET)).toBe(false);
    expect(isValidWebhookSignature(BODY, signature, 'another-secret-0123456789')).toBe(false);
    expect(isValidWebhookSignature(BODY, signature, '')).toBe(false);
    expect(isValidWebhookSignature(BODY, undefined, SECRET)).toBe(false);
    expect(isValidWebhookSignature(BODY, [signature, signature], SECRET)).toBe(false);
    expect(isValidWebhookSignature(BODY, signature.slice(7), SECRET)).toBe(false);
    expect(isValidWebhookSignature(BODY, signature.replace('sha256=', 'sha1='), SECRET)).toBe(false);
    expect(isValidWebhookSignature(BODY, signature.slice(0, -2), SECRET)).toBe(false);
    expect(isValidWebhookSignature(BODY, `${signature}00`, SECRET)).toBe(false);
    expect(isValidWebhookSignature(BODY, signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0'), SECRET)).toBe(
      false,
    );
  });

  it('compares verify tokens exactly, whatever their lengths; an empty stored token matches nothing', () => {
    expect(isSameSecret('verify-me', 'verify-me')).toBe(true);
    expect(isSameSecret('verify-m', 'verify-me')).toBe(false);
    expect(isSameSecret('verify-me!', 'verify-me')).toBe(false);
    expect(isSameSecret('Verify-me', 'verify-me')).toBe(false);
    expect(isSameSecret('', '')).toBe(false);
  });
});
