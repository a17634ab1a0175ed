import type { ErrorCode } from '@switchboard/contract';

export interface FieldIssue {
  field: string;
  problem: string;
}

/**
 * What a 503 asks callers to wait when its cause names no time (a misconfigured channel, a reply kept for its
 * Idempotency-Key): every 503 carries Retry-After, as the OpenAPI declares.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/** Every failure the API reports on purpose. The error handler turns it into the failure envelope. */
export class AppError extends Error {
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.headers = status === 503 ? { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS), ...headers } : headers;
  }
}

/**
 * A failure that comes after an effect outside the database already happened (the provider sent the message, but
 * recording it failed). Unlike other 5xx, its reply is kept for the Idempotency-Key: a retry must get this answer
 * again, not do the request a second time.
 */
export class AfterEffectError extends AppError {}

export class ValidationError extends AppError {
  /** `code`: a 400 with a code of its own (e.g. `duplicate_url`) that still names its field. */
  constructor(
    readonly issues: FieldIssue[],
    code: ErrorCode = 'invalid_request',
  ) {
    super(400, code, issues.map((i) => (i.field ? `${i.field}: ${i.problem}` : i.problem)).join('; '));
  }

  static field(field: string, problem: string) {
    return new ValidationError([{ field, problem }]);
  }
}

export class BadRequestError extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(400, code, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string) {
    // RFC 9110: a 401 names the scheme it accepts.
    super(401, 'unauthorized', message, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have access to this resource.') {
    super(403, 'forbidden', message);
  }
}

export class NotFoundError extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(404, code, message);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, rateClass: string) {
    super(429, 'rate_limited', `Rate limit exceeded for ${rateClass}. Retry after ${retryAfterSeconds} s.`, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
