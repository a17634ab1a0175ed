// `@switchboard/client/webhooks`: verifying and typing webhook deliveries without the API client, the contract or
// zod, for a receiver whose bundle must stay small (an edge function). Measured in tests/sdk/light-imports.test.ts.
import type { WebhookHeaders } from './webhook-signature.js';
import { verifySignedBatch, verifySignedEvent, type WebhookBatchEvent } from './webhook-signature.js';

export { signWebhook, type SignedWebhookHeaders, type SignWebhookOptions } from './webhook-sign.js';
import type { SwitchboardEvent } from './generated/api.js';

export type * from './generated/events.js';
export {
  WebhookVerificationError,
  type WebhookBatchEvent,
  type WebhookHeaders,
  type WebhookVerificationReason,
} from './webhook-signature.js';

/**
 * Checks a webhook delivery and returns its event, typed: `switch (event.type)` narrows `event.data`.
 *
 * The Standard Webhooks signature (HMAC-SHA256 of `webhook-id.webhook-timestamp.body` with the endpoint's `whsec_…`
 * secret, a timestamp within 5 minutes of this machine's clock), a JSON body and a known event type. Unlike the main
 * entry's `verifyWebhook`, the body is not checked against its event's schema (that needs the contract and zod): the
 * signature already proves the server sent it. Throws WebhookVerificationError otherwise.
 *
 * @param rawBody the request body exactly as received (string or Buffer), not parsed JSON
 * @param headers the request's headers (Node, Express or Fetch)
 * @param secret the endpoint's signing secret (`whsec_…`), or several during a rotation
 */
// The checker itself, not a wrapper around it: every byte of this entry counts (tests/sdk/package.test.ts).
export const verifyWebhook: (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
) => SwitchboardEvent = verifySignedEvent;

/**
 * Checks a batched delivery (an endpoint with `batch: true`: a JSON array of up to 100 events, signed once) and
 * returns its events, oldest first, each with its `webhookId`; a single delivery is read as a batch of one. As
 * verifyWebhook: the signature, the timestamp and each event's type, not its schema.
 */
export const verifyWebhookBatch: (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
) => WebhookBatchEvent[] = verifySignedBatch;
