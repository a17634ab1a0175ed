import { createClient, verifyWebhook, WebhookVerificationError, type SwitchboardEvent } from '@switchboard/client';
import { WEBHOOK_EVENTS, type WebhookEventType } from '@switchboard/contract';
// The entry's source (vitest's alias maps only the package's main entry).
import { signWebhook } from '../../packages/client/src/webhooks-entry.js';
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** The Standard Webhooks headers the server sends (apps/server webhook-secrets.ts): one signature per secret. */
function signed(body: string, secrets: string[], at = new Date()): Record<string, string> {
  const id = `msg_${randomBytes(16).toString('hex')}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  };
}

/** A delivery body of each event type, from the contract's example. */
const bodyOf = (type: WebhookEventType) => JSON.stringify({ type, ...WEBHOOK_EVENTS[type].example });

const refusal = (call: () => unknown) => {
  try {
    call();
  } catch (error) {
    return error as WebhookVerificationError;
  }
  throw new Error('verified');
};

describe('webhooks.verify (Standard Webhooks, typed events)', () => {
  const secret = newSecret();

  it('verifies every event type’s example and returns it typed by `type`', () => {
    for (const type of Object.keys(WEBHOOK_EVENTS) as WebhookEventType[]) {
      const body = bodyOf(type);
      expect(verifyWebhook(body, signed(body, [secret]), secret), type).toEqual(JSON.parse(body));
    }
    const body = bodyOf('ticket.closed');
    const event: SwitchboardEvent = verifyWebhook(body, signed(body, [secret]), secret);
    if (event.type !== 'ticket.closed') throw new Error(event.type);
    expect(event.data.ticket.shortId).toBe('T-1042');
  });

  it('takes a Buffer body and Fetch Headers, and is sb.webhooks.verify too', () => {
    const body = bodyOf('message.received');
    const headers = new Headers(signed(body, [secret]));
    const sb = createClient({ baseUrl: 'http://localhost:3000', apiKey: 'k' });
    expect(sb.webhooks.verify(Buffer.from(body), headers, secret)).toMatchObject({ type: 'message.received' });
    expect(sb.webhooks.verify).toBe(verifyWebhook);
  });

  it('accepts a delivery signed during a rotation with either secret, and takes several secrets', () => {
    const [previous, next] = [newSecret(), newSecret()];
    const body = bodyOf('message.status.updated');
    const headers = signed(body, [next, previous]);
    for (const held of [previous, next, [newSecret(), next], [previous, newSecret()]])
      expect(verifyWebhook(body, headers, held)).toMatchObject({ type: 'message.status.updated' });
    expect(refusal(() => verifyWebhook(body, signed(body, [previous]), [newSecret(), next])).reason).toBe(
      'invalid_signature',
    );
  });

  it('refuses a wrong secret, a changed body, an old or future timestamp and missing headers, saying which', () => {
    const body = bodyOf('ticket.closed');
    const headers = signed(body, [secret]);
    const reasons = [
      refusal(() => verifyWebhook(body, headers, newSecret())),
      refusal(() => verifyWebhook(body.replace('T-1042', 'T-9999'), headers, secret)),
      refusal(() => verifyWebhook(body, signed(body, [secret], new Date(Date.now() - 6 * 60_000)), secret)),
      refusal(() => verifyWebhook(body, signed(body, [secret], new Date(Date.now() + 6 * 60_000)), secret)),
      refusal(() => verifyWebhook(body, { 'webhook-id': headers['webhook-id'] }, secret)),
    ];
    expect(reasons.every((error) => error instanceof WebhookVerificationError)).toBe(true);
    expect(reasons.map((error) => error.reason)).toEqual([
      'invalid_signature',
      'invalid_signature',
      'timestamp_out_of_tolerance',
      'timestamp_out_of_tolerance',
      'missing_headers',
    ]);
    // Four minutes off is within the tolerance.
    expect(verifyWebhook(body, signed(body, [secret], new Date(Date.now() - 4 * 60_000)), secret)).toBeDefined();
  });

  it('refuses a signed body that does not match its event’s schema, and names an unknown type with the payload', () => {
    const broken = JSON.stringify({ type: 'ticket.closed', timestamp: '2026-01-31T09:30:00.000Z', data: {} });
    const invalid = refusal(() => verifyWebhook(broken, signed(broken, [secret]), secret));
    expect(invalid).toMatchObject({ reason: 'invalid_payload', message: expect.stringContaining('data.ticket') });
    const future = JSON.stringify({ type: 'invoice.paid', timestamp: 'x', data: { invoiceId: 'i1' } });
    const unknown = refusal(() => verifyWebhook(future, signed(future, [secret]), secret));
    expect(unknown).toMatchObject({ reason: 'unknown_event_type', payload: JSON.parse(future) });
  });

  it('says what to pass when given parsed JSON or no secret', () => {
    const body = bodyOf('ticket.closed');
    const headers = signed(body, [secret]);
    expect(() => verifyWebhook(JSON.parse(body), headers, secret)).toThrow(/raw request body.*express\.raw/);
    expect(() => verifyWebhook(body, headers, [])).toThrow(/signing secret/);
    expect(() => verifyWebhook(body, headers, '')).toThrow(TypeError);
  });

  it('names a malformed secret invalid_secret, not a signature that does not match', () => {
    const body = bodyOf('ticket.closed');
    const headers = signed(body, [secret]);
    for (const malformed of ['whsec_not base64!', 'whsec_', `${secret}%`])
      expect(refusal(() => verifyWebhook(body, headers, malformed)).reason, malformed).toBe('invalid_secret');
    expect(refusal(() => verifyWebhook(body, headers, [secret, 'whsec_?'])).reason).toBe('invalid_secret');
  });
});

describe('signWebhook (@switchboard/client/webhooks): a test delivery’s headers', () => {
  const secret = newSecret();

  it('signs as the server does: verifyWebhook accepts it, keyed by the base64 after whsec_', () => {
    const body = bodyOf('conversation.updated');
    const headers = signWebhook(body, secret);
    expect(verifyWebhook(body, headers, secret)).toMatchObject({ type: 'conversation.updated' });
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    // What docs/api.md says a receiver without the SDK computes: HMAC-SHA256 keyed by the decoded key.
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const signedText = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
    expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(signedText).digest('base64')}`);
  });

  it('takes the timestamp and id to sign with, and refuses a malformed secret', () => {
    const body = bodyOf('ticket.closed');
    const old = signWebhook(body, secret, { timestamp: new Date(Date.now() - 6 * 60_000), id: 'msg_test' });
    expect(old['webhook-id']).toBe('msg_test');
    expect(refusal(() => verifyWebhook(body, old, secret)).reason).toBe('timestamp_out_of_tolerance');
    const seconds = signWebhook(body, secret, { timestamp: 1_800_000_000 });
    expect(seconds['webhook-timestamp']).toBe('1800000000');
    expect(refusal(() => signWebhook(body, 'whsec_not base64!')).reason).toBe('invalid_secret');
  });
});
