import { brand, hasBrand } from './brand.js';
import type { ErrorCode } from './generated/api.js';
import { ERROR_CODES } from './generated/constants.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';
import { responseInfo, type ResponseInfo } from './response.js';

/**
 * Why no reply arrived: `timeout` (the call's or client's timeout passed), `aborted` (the call's signal aborted) or
 * `network` (refused, reset, unknown host, …; the system's own code, e.g. `ECONNREFUSED`, is in the message and on
 * `cause`). The transport's own codes stay behind these three, so a `switch` over them is complete.
 */
export type ConnectionErrorCode = 'timeout' | 'aborted' | 'network';

/** A reply that is not the API's envelope (a proxy's 502 page): `http_<status>`. */
export type HttpErrorCode = `http_${number}`;
/**
 * Every `code` a SwitchboardError can carry: the API's codes, `http_<status>` for a reply that is not the envelope, or
 * a connection code.
 */
export type SwitchboardErrorCode = ErrorCode | HttpErrorCode | ConnectionErrorCode;

/** What an error is made of; `param` is worked out from `code` and `message` when not given. */
export interface ErrorInit<C extends SwitchboardErrorCode> {
  status: number;
  code: C;
  rawCode?: string | undefined;
  message: string;
  requestId?: string | undefined;
  retryAfter?: number | undefined;
  headers?: Record<string, string>;
  response?: ResponseInfo | undefined;
  /** The SDK method that threw it, e.g. `workspace.contacts.get`. */
  operation?: string | undefined;
  cause?: unknown;
}

/** `channelId: is required …` → `channelId`; `Idempotency-Key: must be …` → `Idempotency-Key`. */
const PARAM = /^([A-Za-z][\w.[\]-]*): /;
const IDEMPOTENCY_CODES: readonly string[] = ['idempotency_key_in_progress', 'idempotency_key_reused'];

function paramOf(code: string, message: string): string | undefined {
  if (IDEMPOTENCY_CODES.includes(code)) return IDEMPOTENCY_HEADER;
  return PARAM.exec(message)?.[1];
}

/**
 * Thrown for every non-2xx reply (and for network failures, with status 0). Subclasses name the family, so callers
 * can `catch (e) { if (e instanceof RateLimitError) ... }`; `code` is the envelope's `error` for switching on detail.
 * `instanceof` and isSwitchboardError hold across the ESM and CommonJS builds (brand.ts).
 */
export class SwitchboardError<C extends SwitchboardErrorCode = SwitchboardErrorCode> extends Error {
  /** The class's name in the brand every instance carries (brand.ts). */
  static readonly kind: string = 'SwitchboardError';

  static override [Symbol.hasInstance](value: unknown): boolean {
    // A subclass written by a caller has no `kind` of its own: plain prototype instanceof.
    if (!Object.hasOwn(this, 'kind')) return Function.prototype[Symbol.hasInstance].call(this, value);
    return hasBrand(value, this.kind);
  }

  override readonly name: string = 'SwitchboardError';
  /** HTTP status; 0 when no reply arrived. */
  readonly status: number;
  /**
   * The envelope's `error` (e.g. `invalid_request`, `rate_limited`); `http_<status>` for a reply that is not the
   * envelope or a code this SDK version does not know; a connection code when no reply arrived.
   */
  readonly code: C;
  /**
   * The envelope's `error` exactly as sent, also when this SDK version does not know it (then `code` is
   * `http_<status>`); undefined when the reply was not the envelope.
   */
  readonly rawCode: string | undefined;
  /** The X-Request-Id of the failed request: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds to wait before retrying, from `Retry-After` (429, 503). */
  readonly retryAfter: number | undefined;
  /** The reply's headers, for the rare caller that needs more. */
  readonly headers: Record<string, string>;
  /**
   * The reply's metadata (request id, status, headers, rate limit), as `.withResponse()` gives it for a success;
   * undefined when no reply arrived.
   */
  readonly response: ResponseInfo | undefined;
  /**
   * The parameter or header the failure is about: the first one a 400's message names (`channelId`), `Idempotency-Key`
   * for its errors.
   */
  readonly param: string | undefined;
  /** The SDK method that threw it, e.g. `workspace.contacts.get` (what the methods' `isError` guards check). */
  readonly operation: string | undefined;

  constructor(init: ErrorInit<C>) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.rawCode = init.rawCode;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.headers = init.headers ?? {};
    this.response = init.response;
    this.param = paramOf(init.code, init.message);
    this.operation = init.operation;
    brand(this, new.target);
  }
}

/** Whether `value` is an error thrown by this SDK (in either of its builds, ESM or CommonJS). */
export const isSwitchboardError = (value: unknown): value is SwitchboardError => value instanceof SwitchboardError;

/**
 * 400: invalid parameters (`invalid_request`), malformed JSON (`invalid_json`), or a refusal such as
 * `no_active_subscription`.
 */
export class InvalidRequestError extends SwitchboardError {
  static override readonly kind: string = 'InvalidRequestError';
  override readonly name: string = 'InvalidRequestError';
}

/** 401 `unauthorized`: the API key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends SwitchboardError {
  static override readonly kind: string = 'AuthenticationError';
  override readonly name: string = 'AuthenticationError';
}

/**
 * 403 `forbidden`: the key may not do this (permission, platform access, another tenant's resource);
 * `platform_inactive`: its platform is switched off.
 */
export class PermissionError extends SwitchboardError {
  static override readonly kind: string = 'PermissionError';
  override readonly name: string = 'PermissionError';
}

/**
 * 404: `not_found`, `no_channel`, `ticket_not_found`, `user_not_found`, `addon_not_found`, `template_not_found`,
 * `webhook_not_found`, `delivery_not_found`, …
 */
export class NotFoundError extends SwitchboardError {
  static override readonly kind: string = 'NotFoundError';
  override readonly name: string = 'NotFoundError';
}

/** 409 `idempotency_key_in_progress` or 422 `idempotency_key_reused`: `param` is `Idempotency-Key`. */
export class IdempotencyError extends SwitchboardError {
  static override readonly kind: string = 'IdempotencyError';
  override readonly name: string = 'IdempotencyError';
}

/** 429 `rate_limited`: wait `retryAfter` seconds (the client retries it by default, see `maxRetries`). */
export class RateLimitError extends SwitchboardError {
  static override readonly kind: string = 'RateLimitError';
  override readonly name: string = 'RateLimitError';
}

/**
 * No reply arrived (status 0): the server is unreachable, the request timed out or was aborted; `cause` is the
 * underlying error.
 */
export class ApiConnectionError extends SwitchboardError<ConnectionErrorCode> {
  static override readonly kind: string = 'ApiConnectionError';
  override readonly name: string = 'ApiConnectionError';
}

const BY_STATUS: Record<number, new (init: ErrorInit<SwitchboardErrorCode>) => SwitchboardError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: IdempotencyError,
  422: IdempotencyError,
  429: RateLimitError,
};

/** One of the codes of the contract this SDK was built from (a code it does not know reads as `http_<status>`). */
const isErrorCode = (value: unknown): value is ErrorCode => (ERROR_CODES as readonly unknown[]).includes(value);

/** A failed reply in the `{success: false, error, message}` envelope (or anything else a proxy sent) as an error. */
export function toSwitchboardError(
  status: number,
  body: unknown,
  headers: Record<string, string>,
  operation?: string,
): SwitchboardError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; message?: unknown };
  const response = responseInfo(status, headers);
  const retryAfter = headers['retry-after'] !== undefined ? Number(headers['retry-after']) : undefined;
  const ErrorClass = BY_STATUS[status] ?? SwitchboardError<SwitchboardErrorCode>;
  return new ErrorClass({
    status,
    code: isErrorCode(envelope.error) ? envelope.error : `http_${status}`,
    rawCode: typeof envelope.error === 'string' ? envelope.error : undefined,
    message: typeof envelope.message === 'string' ? envelope.message : `Request failed with status ${status}`,
    requestId: response.requestId,
    retryAfter: Number.isFinite(retryAfter) ? retryAfter : undefined,
    headers,
    response,
    operation,
  });
}

/** What the transport said about a request that got no reply (axios's error: its `code` and `message`). */
interface TransportFailure {
  code?: string | undefined;
  message?: string | undefined;
}

/** The transport's codes for a request it gave up on itself (axios: ECONNABORTED, or ETIMEDOUT with its option). */
const TIMEOUT_CODES: readonly (string | undefined)[] = ['ECONNABORTED', 'ETIMEDOUT'];

/** The connection code and this SDK's message for a transport failure (never the transport's own wording). */
function describeFailure(
  failure: TransportFailure,
  aborted: boolean,
  timeoutMs: number | undefined,
): { code: ConnectionErrorCode; message: string } {
  if (aborted || failure.code === 'ERR_CANCELED') return { code: 'aborted', message: 'The request was aborted' };
  if (TIMEOUT_CODES.includes(failure.code)) {
    const limit = timeoutMs === undefined ? 'the timeout' : `${timeoutMs} ms`;
    return { code: 'timeout', message: `No reply within ${limit} (the call’s or the client’s timeout)` };
  }
  const system = failure.code && /^E[A-Z]+$/.test(failure.code) ? ` (${failure.code})` : '';
  return { code: 'network', message: `The server could not be reached${system}` };
}

/**
 * A request that got no reply (refused, timed out, aborted), with the transport's error as `cause`; `aborted` when
 * the caller's signal ended it, `timeoutMs` for the message.
 */
export function connectionError(
  cause: unknown,
  operation: string | undefined,
  context: { aborted?: boolean | undefined; timeoutMs?: number | undefined } = {},
): ApiConnectionError {
  const { code, message } = describeFailure(
    (cause ?? {}) as TransportFailure,
    context.aborted ?? false,
    context.timeoutMs,
  );
  return new ApiConnectionError({ status: 0, code, message, operation, cause });
}
