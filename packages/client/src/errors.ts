/** Thrown for every non-2xx reply (and for network failures, with status 0). */
export class SwitchboardError extends Error {
  override readonly name = 'SwitchboardError';

  constructor(
    /** HTTP status; 0 when no reply arrived. */
    readonly status: number,
    /** Stable snake_case code from the envelope's `error`, e.g. `invalid_request`, `rate_limited`. */
    readonly code: string,
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

/** A failed reply in the `{success: false, error, message}` envelope (or anything else a proxy sent) as an error. */
export function toSwitchboardError(status: number, body: unknown, headers: Record<string, string>): SwitchboardError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; message?: unknown };
  const retryAfter = headers['retry-after'] !== undefined ? Number(headers['retry-after']) : undefined;
  return new SwitchboardError(
    status,
    typeof envelope.error === 'string' ? envelope.error : `http_${status}`,
    typeof envelope.message === 'string' ? envelope.message : `Request failed with status ${status}`,
    headers['x-request-id'],
    Number.isFinite(retryAfter) ? retryAfter : undefined,
    headers,
  );
}
