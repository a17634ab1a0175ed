import { WEBHOOK_EVENTS } from '@switchboard/contract';
import type { SwitchboardEvent, WebhookEventType } from './generated/api.js';
import {
  verifySignedBatch,
  verifySignedEvent,
  WebhookVerificationError,
  type WebhookBatchEvent,
  type WebhookHeaders,
} from './webhook-signature.js';

/** The body must match its event type's schema from the API contract (a drift between server and SDK shows here). */
function checkSchema(type: WebhookEventType, payload: unknown): void {
  const checked = WEBHOOK_EVENTS[type].schema.safeParse(payload);
  if (checked.success) return;
  const [issue] = checked.error.issues;
  throw new WebhookVerificationError(
    'invalid_payload',
    `The ${type} body does not match its schema: ${issue?.path.join('.')}: ${issue?.message}`,
  );
}

/**
 * Checks a webhook delivery and returns its event, typed: `switch (event.type)` narrows `event.data`.
 *
 * Standard Webhooks (https://www.standardwebhooks.com/) with the `standardwebhooks` package, the reference
 * implementation the server signs with: the HMAC-SHA256 signature of `webhook-id.webhook-timestamp.body` with the
 * endpoint's `whsec_…` secret, and a timestamp within 5 minutes of this machine's clock. Give several secrets during
 * a rotation (the new one and the one it replaced): any one verifying is enough. Then the body must match its event
 * type's schema from the API contract. Throws WebhookVerificationError otherwise. (`@switchboard/client/webhooks`
 * has a lighter `verifyWebhook`, without the schema check, for bundles that must stay small.)
 *
 * @param rawBody the request body exactly as received (string or Buffer), not parsed JSON
 * @param headers the request's headers (Node, Express or Fetch)
 * @param secret the endpoint's signing secret (`whsec_…`), or several during a rotation
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
): SwitchboardEvent {
  return verifySignedEvent(rawBody, headers, secret, checkSchema);
}

/**
 * Checks a batched delivery (an endpoint created with `batch: true`: one POST carrying up to 100 events as a JSON
 * array, signed once) and returns its events, oldest first, each with its `webhookId` (stable across retries: act
 * once per id) and checked against its event type's schema. A single delivery is read as a batch of one (its
 * `webhookId` is its `webhook-id` header), so one receiver serves both kinds of endpoint. Throws
 * WebhookVerificationError as verifyWebhook does.
 */
export function verifyWebhookBatch(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
): WebhookBatchEvent[] {
  return verifySignedBatch(rawBody, headers, secret, checkSchema);
}
