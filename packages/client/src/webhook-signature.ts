/**
 * Webhook verification without the contract (and so without zod): the Standard Webhooks signature, the JSON body and
 * its event type. `@switchboard/client/webhooks` is this alone; the main entry adds each event's schema check.
 */
import { Webhook } from 'standardwebhooks';
import { brand, hasBrand } from './brand.js';
import type { SwitchboardEvent, WebhookEventType } from './generated/api.js';
import { WEBHOOK_EVENT_TYPES } from './generated/constants.js';

/**
 * Why a delivery was refused; `invalid_secret`: a secret given is not one (its key is the base64 after `whsec_`), so
 * nothing could be checked: fix the receiver's configuration.
 */
export type WebhookVerificationReason = SignatureRefusal | 'invalid_secret' | 'invalid_payload' | 'unknown_event_type';

/**
 * Thrown by `webhooks.verify` for a delivery that must not be trusted (answer it with a 4xx), or, with reason
 * `unknown_event_type`, for a correctly signed event this SDK version does not know (`payload` holds it: acknowledge
 * it with a 2xx and upgrade the SDK).
 */
export class WebhookVerificationError extends Error {
  static readonly kind = 'WebhookVerificationError';

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (!Object.hasOwn(this, 'kind')) return Function.prototype[Symbol.hasInstance].call(this, value);
    return hasBrand(value, this.kind);
  }

  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
    /** The verified body, for `unknown_event_type` only. */
    readonly payload?: unknown,
  ) {
    super(message);
    brand(this, new.target);
  }
}

/** Request headers as Node (`req.headers`), Express or the Fetch API (`request.headers`) give them. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerValues(headers: WebhookHeaders): Record<string, string> {
  const get =
    headers instanceof Headers
      ? (name: string) => headers.get(name) ?? undefined
      : (name: string) => {
          const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
          const value = key === undefined ? undefined : headers[key];
          return Array.isArray(value) ? value.join(' ') : (value as string | undefined);
        };
  return Object.fromEntries(SIGNATURE_HEADERS.map((name) => [name, get(name) ?? '']));
}

function bodyText(rawBody: string | Uint8Array): string {
  if (typeof rawBody === 'string') return rawBody;
  if (rawBody instanceof Uint8Array) return new TextDecoder().decode(rawBody);
  throw new TypeError(
    'webhooks.verify needs the raw request body (a string or Buffer), not parsed JSON: the signature covers the ' +
      'exact bytes (Express: express.raw({ type: "application/json" }))',
  );
}

type SignatureRefusal = 'missing_headers' | 'invalid_signature' | 'timestamp_out_of_tolerance';

const SIGNATURE_REFUSALS: Record<SignatureRefusal, string> = {
  missing_headers: 'Missing webhook-id, webhook-timestamp or webhook-signature header',
  invalid_signature: 'No signature of this delivery matches the secret(s) given',
  timestamp_out_of_tolerance: 'webhook-timestamp is more than 5 minutes from this machine’s clock (a replay?)',
};

/** The library's message as a reason: it distinguishes them only in words. */
function reasonOf(message: string): SignatureRefusal {
  if (/missing/i.test(message)) return 'missing_headers';
  if (/timestamp too (old|new)/i.test(message)) return 'timestamp_out_of_tolerance';
  return 'invalid_signature';
}

/** Standard base64, padded: what follows `whsec_` in an endpoint's secret. */
const BASE64_KEY = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The signer of an endpoint's secret: `whsec_` and the base64 of its key. A secret that is not one (a typo, a
 * truncated copy) is refused as such, never as a signature that does not match.
 */
export function signer(secret: string): Webhook {
  try {
    // The library's decoder lets some malformed text through (a stray trailing character): checked here first.
    if (!BASE64_KEY.test(secret.replace(/^whsec_/, ''))) throw new TypeError('not base64');
    return new Webhook(secret);
  } catch {
    throw new WebhookVerificationError('invalid_secret', 'Not a signing secret: whsec_ and the base64 of its key');
  }
}

/** Returns when the delivery carries a valid signature by one of `secrets`; throws the reason otherwise. */
function verifySignature(body: string, headers: Record<string, string>, secrets: readonly string[]): void {
  let refusal: SignatureRefusal = 'invalid_signature';
  for (const webhook of secrets.map(signer)) {
    try {
      webhook.verify(body, headers, { jsonParse: false });
      return;
    } catch (error) {
      refusal = reasonOf((error as Error).message);
      if (refusal !== 'invalid_signature') break;
    }
  }
  throw new WebhookVerificationError(refusal, SIGNATURE_REFUSALS[refusal]);
}

/** A body check run on each verified event (the main entry's schema check). */
type CheckBody = (type: WebhookEventType, payload: unknown) => void;

/**
 * The signature (by one of `secret`), then the body parsed as JSON; throws the reason otherwise. (Every byte of this
 * path counts: `@switchboard/client/webhooks` has a size budget, tests/sdk/package.test.ts.)
 */
function verifiedJson(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
): unknown {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!secrets.length || secrets.some((each) => typeof each !== 'string' || !each))
    throw new TypeError('webhooks.verify needs the endpoint’s signing secret (whsec_…), or a list of them');
  const body = bodyText(rawBody);
  verifySignature(body, headerValues(headers), secrets);
  try {
    return JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The body is not JSON');
  }
}

/**
 * A verified body as an event of a known type (then `checkBody`), or the reason it is not. A batch (a JSON array: an
 * endpoint with `batch: true`) is not one event: verifySignedBatch reads it.
 */
function knownEvent(payload: unknown, checkBody?: CheckBody): SwitchboardEvent {
  if (Array.isArray(payload)) throw new WebhookVerificationError('invalid_payload', 'A batch: use verifyWebhookBatch');
  const type = (payload as { type?: unknown } | null)?.type;
  if (!WEBHOOK_EVENT_TYPES.includes(type as WebhookEventType))
    throw new WebhookVerificationError(
      'unknown_event_type',
      `Event type ${JSON.stringify(type)} is not known to this SDK version: acknowledge it and upgrade ` +
        `@switchboard/client`,
      payload,
    );
  checkBody?.(type as WebhookEventType, payload);
  return payload as SwitchboardEvent;
}

/**
 * Checks a delivery's signature (Standard Webhooks, https://www.standardwebhooks.com/, with the `standardwebhooks`
 * package, the reference implementation the server signs with: the HMAC-SHA256 signature of
 * `webhook-id.webhook-timestamp.body` with the endpoint's `whsec_…` secret, and a timestamp within 5 minutes of this
 * machine's clock), that its body is JSON, and that its `type` is an event type this SDK version knows; then
 * `checkBody` (the main entry's schema check), if given. Returns the body as sent, so fields a newer server adds still
 * reach the caller. A batch is refused: verifySignedBatch reads it.
 */
export const verifySignedEvent = (
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  checkBody?: CheckBody,
): SwitchboardEvent => knownEvent(verifiedJson(rawBody, headers, secret), checkBody);

/** An event of a batch, with its own `webhookId` (stable across retries: act once per id). */
export type WebhookBatchEvent = SwitchboardEvent & { webhookId: string };

/**
 * Checks a batched delivery (one signature over a JSON array of events, each with its `webhookId`) and returns its
 * events, oldest first. A single delivery is read too, as a batch of one whose `webhookId` is its `webhook-id`, so a
 * receiver can use this whether or not its endpoint batches. Every event must be of a known type (then
 * `checkBody`): one that is not refuses the whole batch with `unknown_event_type` (`payload` holds the array).
 */
export function verifySignedBatch(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  checkBody?: CheckBody,
): WebhookBatchEvent[] {
  const payload = verifiedJson(rawBody, headers, secret);
  if (!Array.isArray(payload))
    return [{ ...knownEvent(payload, checkBody), webhookId: headerValues(headers)['webhook-id']! }];
  return payload.map((item: unknown) => {
    const id = (item as { webhookId?: unknown } | null)?.webhookId;
    if (typeof id !== 'string') throw new WebhookVerificationError('invalid_payload', 'A batch event has no webhookId');
    try {
      return { ...knownEvent(item, checkBody), webhookId: id };
    } catch (error) {
      if (error instanceof WebhookVerificationError && error.reason === 'unknown_event_type')
        throw new WebhookVerificationError(error.reason, error.message, payload);
      throw error;
    }
  });
}
