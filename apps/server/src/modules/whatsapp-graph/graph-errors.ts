import { z } from 'zod';
import { ProviderCallError, type ProviderFailure } from '../messages/index.js';

/**
 * How a failing Graph API call becomes one of our errors. The first row that matches wins.
 *
 * | Graph reply                                                        | our reply                          |
 * |--------------------------------------------------------------------|------------------------------------|
 * | code 190 (invalid/expired token), 102 (session), 10 or 200–299      | 502 `provider_unauthorized`        |
 * | (permission), 131005 (access denied), 131031 (account locked), or  |   the channel's credentials must   |
 * | any HTTP 401 / 403                                                 |   be fixed; retrying cannot help   |
 * | code 4, 80007, 130429 (throughput), 131048 (spam limit), 131056     | 503 `provider_unavailable`,        |
 * | (pair rate limit), or HTTP 429                                     |   `Retry-After` (Graph's, else 60) |
 * | code 1, 2, 131000, 131016, 133004 (service errors), or HTTP ≥ 500  | 503 `provider_unavailable`,        |
 * |                                                                    |   `Retry-After` (Graph's, else 30) |
 * | timeout, refused/reset connection, DNS failure                     | 503 `provider_unavailable`, 30     |
 * | any other HTTP 4xx with a Graph error body: 100 (parameter),       | 400 `provider_rejected`: the       |
 * | 131026 (undeliverable), 131047 (re-engagement window), 132000      |   request itself was refused;      |
 * | (parameter count), 132001 (template/language missing), …           |   Meta's code and text in message  |
 * | a reply that is not Graph's error shape, or a 2xx we cannot read   | 503 `provider_unavailable`, 30     |
 *
 * Rate limits are 503 rather than our own 429 `rate_limited`: the caller did not exceed *our* budget, Meta's
 * servers asked us to slow down, and the same send may well succeed later — exactly what 503 + Retry-After says.
 * The pair limit (131056, one recipient messaged too often) is treated the same way for that reason.
 *
 * Messages carry Meta's code and text (with the access token scrubbed out, should Meta ever echo it) and never the
 * token, the request headers or the request body. The errors carry Meta's code as a field as well (`providerCode`),
 * and mark its throughput limits (130429, 131056) `throttled`: the send pipeline queues such a send again.
 */

/** A failure with no Graph error code (no reply, or one we could not read). */
const NO_CODE: ProviderFailure = { providerCode: null, throttled: false };

export class ProviderRejectedError extends ProviderCallError {
  constructor(message: string, failure = NO_CODE) {
    super(400, 'provider_rejected', message, failure);
  }
}

export class ProviderUnauthorizedError extends ProviderCallError {
  constructor(message: string, failure = NO_CODE) {
    super(502, 'provider_unauthorized', message, failure);
  }
}

export class ProviderUnavailableError extends ProviderCallError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    failure = NO_CODE,
  ) {
    super(503, 'provider_unavailable', message, failure, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export type ProviderError = ProviderRejectedError | ProviderUnauthorizedError | ProviderUnavailableError;

const SERVICE_RETRY_AFTER_SECONDS = 30;
const RATE_LIMIT_RETRY_AFTER_SECONDS = 60;
/** A Retry-After from Graph beyond this is clamped: a caller should look again within the hour. */
const MAX_RETRY_AFTER_SECONDS = 3600;

const TOKEN_CODES = new Set([190, 102, 10, 131005, 131031]);
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131048, 131056]);
/** Meta's throughput limits of a number (its messages a second, one recipient's pair rate): a later send passes. */
const THROTTLE_CODES = new Set([130429, 131056]);
const SERVICE_CODES = new Set([1, 2, 131000, 131016, 133004]);

const graphErrorBody = z.object({
  error: z.object({
    message: z.string().catch(''),
    code: z.number().int(),
    error_subcode: z.number().int().optional().catch(undefined),
    error_user_msg: z.string().optional().catch(undefined),
    error_data: z
      .object({ details: z.string().optional().catch(undefined) })
      .passthrough()
      .optional()
      .catch(undefined),
  }),
});

export interface GraphFailure {
  /** What we were doing, for the message: e.g. "sending the template message". */
  operation: string;
  httpStatus: number;
  /** The parsed JSON reply, or undefined when it was not JSON. */
  body: unknown;
  /** Graph's Retry-After header, when present. */
  retryAfter?: string | string[];
  /** Removed from every message should Meta's text contain it. */
  accessToken: string;
}

/** Maps a non-2xx Graph reply to our typed error (table above). */
export function graphFailureError(failure: GraphFailure): ProviderError {
  const parsed = graphErrorBody.safeParse(failure.body);
  const status = failure.httpStatus;
  if (!parsed.success) {
    return new ProviderUnavailableError(
      `WhatsApp Cloud API answered HTTP ${status} without a Graph error while ${failure.operation}.`,
      retryAfterSeconds(failure.retryAfter, SERVICE_RETRY_AFTER_SECONDS),
    );
  }
  const { code } = parsed.data.error;
  const described = scrub(describe(parsed.data.error), failure.accessToken);
  const coded: ProviderFailure = { providerCode: code, throttled: THROTTLE_CODES.has(code) };

  if (TOKEN_CODES.has(code) || (code >= 200 && code <= 299) || status === 401 || status === 403) {
    return new ProviderUnauthorizedError(
      `WhatsApp Cloud API refused the channel's credentials while ${failure.operation}: ${described}`,
      coded,
    );
  }
  if (RATE_LIMIT_CODES.has(code) || status === 429) {
    return new ProviderUnavailableError(
      `WhatsApp Cloud API is rate limiting this number while ${failure.operation}: ${described}`,
      retryAfterSeconds(failure.retryAfter, RATE_LIMIT_RETRY_AFTER_SECONDS),
      coded,
    );
  }
  if (SERVICE_CODES.has(code) || status >= 500) {
    return new ProviderUnavailableError(
      `WhatsApp Cloud API is unavailable while ${failure.operation}: ${described}`,
      retryAfterSeconds(failure.retryAfter, SERVICE_RETRY_AFTER_SECONDS),
      coded,
    );
  }
  return new ProviderRejectedError(
    `WhatsApp Cloud API rejected the request while ${failure.operation}: ${described}`,
    coded,
  );
}

/** A call that got no reply: timeout, connection refused or reset, DNS failure. */
export function graphUnreachableError(
  operation: string,
  timedOut: boolean,
  errorCode?: string,
): ProviderUnavailableError {
  const why = timedOut ? 'did not answer in time' : `could not be reached${errorCode ? ` (${errorCode})` : ''}`;
  return new ProviderUnavailableError(`WhatsApp Cloud API ${why} while ${operation}.`, SERVICE_RETRY_AFTER_SECONDS);
}

/** A 2xx reply we cannot read (not JSON, or missing what the operation needs). */
export function graphUnexpectedReplyError(operation: string): ProviderUnavailableError {
  return new ProviderUnavailableError(
    `WhatsApp Cloud API sent a reply we could not read while ${operation}.`,
    SERVICE_RETRY_AFTER_SECONDS,
  );
}

type GraphError = z.infer<typeof graphErrorBody>['error'];

/** `Template name does not exist in the translation — <details> (code 132001, subcode 2494073)`. */
function describe(error: GraphError): string {
  const code =
    error.error_subcode === undefined ? `code ${error.code}` : `code ${error.code}, subcode ${error.error_subcode}`;
  const texts = [error.message, error.error_user_msg, error.error_data?.details].filter((text): text is string =>
    Boolean(text),
  );
  return `${[...new Set(texts)].join(' — ') || 'no description'} (${code})`;
}

function scrub(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

function retryAfterSeconds(header: string | string[] | undefined, fallback: number): number {
  const value = Array.isArray(header) ? header[0] : header;
  const seconds = value === undefined ? NaN : Number(value);
  return Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, MAX_RETRY_AFTER_SECONDS) : fallback;
}
