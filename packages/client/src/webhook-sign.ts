import { signer } from './webhook-signature.js';

/** The three headers a delivery carries, as `signWebhook` makes them. */
export type SignedWebhookHeaders = Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>;

export interface SignWebhookOptions {
  /** When it was "sent": a Date, or Unix seconds; now by default (verification refuses one 5 minutes off). */
  timestamp?: Date | number | undefined;
  /** The `webhook-id`; a fresh `msg_…` by default. */
  id?: string | undefined;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const randomId = () => `msg_${hex(crypto.getRandomValues(new Uint8Array(16)))}`;

/**
 * Signs a test delivery as the server signs a real one (Standard Webhooks, the endpoint's `whsec_…` secret), so a
 * receiver's tests can post `payload` with these headers and see verifyWebhook accept it (Stripe's
 * `generateTestHeaderString`). Send `payload` byte for byte as signed.
 *
 * @example
 * const body = JSON.stringify({ type: 'ticket.closed', timestamp: new Date().toISOString(), data: { ticket } });
 * const headers = { ...signWebhook(body, secret), 'content-type': 'application/json' };
 * await fetch(receiverUrl, { method: 'POST', body, headers });
 */
export function signWebhook(payload: string, secret: string, options: SignWebhookOptions = {}): SignedWebhookHeaders {
  const { timestamp = new Date(), id = randomId() } = options;
  const at = timestamp instanceof Date ? timestamp : new Date(timestamp * 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer(secret).sign(id, at, payload),
  };
}
