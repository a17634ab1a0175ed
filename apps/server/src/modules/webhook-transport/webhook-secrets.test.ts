import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { inOverlap, newWebhookSecret, overlapEndsAt, signingSecrets, signWebhook } from './webhook-secrets.js';

const NOW = new Date('2026-11-23T12:00:00Z');

describe('webhook secrets', () => {
  it('keeps a replaced secret signing for 24 hours after the rotation, and not a moment longer', () => {
    const rotated = { secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretExpiresAt: overlapEndsAt(NOW) };
    expect(rotated.previousSecretExpiresAt.toISOString()).toBe('2026-11-24T12:00:00.000Z');
    expect(signingSecrets(rotated, new Date('2026-11-24T11:59:59Z'))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, new Date('2026-11-24T12:00:00Z'))).toEqual(['whsec_new']);
    expect(inOverlap({ previousSecretExpiresAt: null }, NOW)).toBe(false);
  });

  it('signs once per secret, space-separated, and each secret verifies the request on its own', () => {
    const [current, previous, stranger] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ type: 'ticket.closed' });
    const headers = signWebhook([current, previous], 'msg_1', body);
    expect(headers['webhook-signature']!.split(' ')).toEqual([
      expect.stringMatching(/^v1,/),
      expect.stringMatching(/^v1,/),
    ]);
    expect(new Webhook(current).verify(body, headers)).toEqual({ type: 'ticket.closed' });
    expect(new Webhook(previous).verify(body, headers)).toEqual({ type: 'ticket.closed' });
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow(/No matching signature/);
  });
});
