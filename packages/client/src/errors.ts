import { ERROR_CODES } from '@switchboard/contract';
import type { ErrorCode } from './generated/api.js';

/**
 * Why no reply arrived: the operating system's network errors and axios's own codes (`ECONNABORTED` on timeout,
 * `ERR_CANCELED` on abort). Any other cause is reported as `ERR_NETWORK`, so this list is all a `code` can be.
 */
export const CONNECTION_ERROR_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'ERR_CANCELED',
  'ERR_NETWORK',
  'ERR_FR_TOO_MANY_REDIRECTS',
  'ERR_BAD_RESPONSE',
  'ERR_BAD_REQUEST',
  'ERR_BAD_OPTION',
  'ERR_BAD_OPTION_VALUE',
  'ERR_INVALID_URL',
  'ERR_NOT_SUPPORT',
  'ERR_DEPRECATED',
] as const;
export type ConnectionErrorCode = (typeof CONNECTION_ERROR_CODES)[number];

/** A known connection code as it is, anything else (or none) as `ERR_NETWORK`. */
export const connectionErrorCode = (code: string | undefined): ConnectionErrorCode =>
  (CONNECTION_ERROR_CODES as readonly (string | undefined)[]).includes(code)
    ? (code as ConnectionErrorCode)
    : 'ERR_NETWORK';

/** A reply that is not the API's envelope (a proxy's 502 page): `http_<status>`. */
export type HttpErrorCode = `http_${number}`;
/**
 * Every `code` a SwitchboardError can carry: the API's codes, `http_<status>` for a reply that is not the envelope, or
 * a connection code.
 */
export type SwitchboardErrorCode = ErrorCode | HttpErrorCode | ConnectionErrorCode;

/**
 * Thrown for every non-2xx reply (and for network failures, with status 0). Subclasses name the family, so callers
 * can `catch (e) { if (e instanceof RateLimitError) ... }`; `code` is the envelope's `error` for switching on detail.
 */
export class SwitchboardError extends Error {
  override readonly name: string = 'SwitchboardError';

  constructor(
    /** HTTP status; 0 when no reply arrived. */
    readonly status: number,
    /**
     * The envelope's `error` (e.g. `invalid_request`, `rate_limited`); `http_<status>` for a reply that is not the
     * envelope.
     */
    readonly code: SwitchboardErrorCode,
    message: string,
    /** The X-Request-Id of the failed request: quote it when reporting a problem. */
    readonly requestId: string | undefined,
    /** Seconds to wait before retrying, from `Retry-After` (429). */
    readonly retryAfter: number | undefined,
    /** The reply's headers, for the rare caller that needs more. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 401 `unauthorized`: the API key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends SwitchboardError {
  override readonly name = 'AuthenticationError';
}

/**
 * 403 `forbidden`: the key may not do this (permission, platform access, another tenant's resource);
 * `platform_inactive`: its platform is switched off.
 */
export class PermissionError extends SwitchboardError {
  override readonly name = 'PermissionError';
}

/**
 * 404: `not_found`, `no_channel`, `ticket_not_found`, `user_not_found`, `addon_not_found`, `template_not_found`,
 * `webhook_not_found`, `delivery_not_found`.
 */
export class NotFoundError extends SwitchboardError {
  override readonly name = 'NotFoundError';
}

/** 400: invalid parameters (`invalid_request`), malformed JSON (`invalid_json`), or `no_active_subscription`. */
export class InvalidRequestError extends SwitchboardError {
  override readonly name = 'InvalidRequestError';
  /** The first parameter the message names (`channelId` in `channelId: is required …`), when it names one. */
  readonly param = /^([A-Za-z][\w.[\]]*): /.exec(this.message)?.[1];
}

/** 429 `rate_limited`: wait `retryAfter` seconds (or use the client's `retry` option). */
export class RateLimitError extends SwitchboardError {
  override readonly name = 'RateLimitError';
}

/** No reply arrived (status 0): the server is unreachable, the request timed out or was aborted. */
export class ApiConnectionError extends SwitchboardError {
  override readonly name = 'ApiConnectionError';
}

const BY_STATUS: Record<number, typeof SwitchboardError> = {
  0: ApiConnectionError,
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  429: RateLimitError,
};

/** One of the codes of the contract this SDK was built from (a code it does not know reads as `http_<status>`). */
const isErrorCode = (value: unknown): value is ErrorCode => (ERROR_CODES as readonly unknown[]).includes(value);

/** A failed reply in the `{success: false, error, message}` envelope (or anything else a proxy sent) as an error. */
export function toSwitchboardError(status: number, body: unknown, headers: Record<string, string>): SwitchboardError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; message?: unknown };
  const retryAfter = headers['retry-after'] !== undefined ? Number(headers['retry-after']) : undefined;
  const ErrorClass = BY_STATUS[status] ?? SwitchboardError;
  return new ErrorClass(
    status,
    isErrorCode(envelope.error) ? envelope.error : `http_${status}`,
    typeof envelope.message === 'string' ? envelope.message : `Request failed with status ${status}`,
    headers['x-request-id'],
    Number.isFinite(retryAfter) ? retryAfter : undefined,
    headers,
  );
}
