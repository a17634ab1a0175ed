import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_OVERLAP_HOURS } from '@switchboard/contract';
import { Webhook } from 'standardwebhooks';

/** A Standard Webhooks signing secret: `whsec_` and 192 random bits in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Until when a secret replaced `now` keeps signing beside its successor. */
export const overlapEndsAt = (now: Date) => new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000);

interface EndpointSecrets {
  secret: string;
  previousSecret?: string | null;
  previousSecretExpiresAt?: Date | null;
}

/** Whether the secret a rotation replaced (kept until `previousSecretExpiresAt`) still signs at `now`. */
export const inOverlap = (endpoint: Pick<EndpointSecrets, 'previousSecretExpiresAt'>, now = new Date()): boolean =>
  Boolean(endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now);

/** The secrets that sign at `now`: the current one and, during a rotation's overlap, the one it replaced. */
export function signingSecrets(endpoint: EndpointSecrets, now = new Date()): string[] {
  return inOverlap(endpoint, now) && endpoint.previousSecret
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];
}

/**
 * Standard Webhooks headers for one POST. The `standardwebhooks` package is the reference implementation
 * receivers verify with, so signing with it (rather than a hand-rolled HMAC) guarantees they agree. Each secret
 * adds one `v1,…` signature, space-separated, and a receiver accepts the request when any one verifies: that is
 * how a rotation keeps receivers that still hold the old secret working.
 * The timestamp is the attempt's, so a retry hours later still passes the receiver's freshness check;
 * `webhook-id` stays the delivery's, so receivers can drop repeats.
 */
export function signWebhook(
  secrets: readonly string[],
  webhookId: string,
  body: string,
  now = new Date(),
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Switchboard-Webhooks/1.0',
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(webhookId, now, body)).join(' '),
  };
}
