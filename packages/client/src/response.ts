/** The rate limit window of the request's class, from the `RateLimit-*` headers. */
export interface RateLimitInfo {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** What the reply said besides its body: `.withResponse()` gives it for a success, `error.response` for a failure. */
export interface ResponseInfo {
  /** The X-Request-Id: quote it when reporting a problem. */
  requestId: string | undefined;
  status: number;
  /** Every header of the reply, names in lower case. */
  headers: Record<string, string>;
  /** Present when the reply carried the rate limiter's headers. */
  rateLimit?: RateLimitInfo | undefined;
  /** The server replayed the stored reply of an earlier request with the same Idempotency-Key (nothing ran again). */
  idempotentReplayed: boolean;
}

/** A method's result with the reply's metadata. */
export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

const integer = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);

export function responseInfo(status: number, headers: Record<string, string>): ResponseInfo {
  const limit = integer(headers['ratelimit-limit']);
  const remaining = integer(headers['ratelimit-remaining']);
  const resetSeconds = integer(headers['ratelimit-reset']);
  const rateLimit =
    limit !== undefined && remaining !== undefined && resetSeconds !== undefined
      ? { limit, remaining, resetSeconds }
      : undefined;
  return {
    requestId: headers['x-request-id'],
    status,
    headers,
    ...(rateLimit && { rateLimit }),
    idempotentReplayed: headers['idempotent-replayed'] === 'true',
  };
}

/**
 * What every method returns: a promise of the reply's body that can also give the reply's metadata, the convention
 * of Stainless-built SDKs (openai-node): `const { data, response } = await
 * sb.workspace.channels.list().withResponse()`.
 * One request either way. `then` reads through to the request (as openai-node's APIPromise does), so a caller using
 * only `withResponse()` leaves no second promise to reject unhandled.
 */
export class APIPromise<T> extends Promise<T> {
  // Built-ins that make a new promise from this one (none here, since `then` is overridden) make a plain one.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #withResponse: Promise<WithResponse<T>>;

  constructor(withResponse: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#withResponse = withResponse;
  }

  override then<Fulfilled = T, Rejected = never>(
    onfulfilled?: ((value: T) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#withResponse.then((reply) => reply.data).then(onfulfilled, onrejected);
  }

  /**
   * The body and the reply's metadata: `{ data, response: { requestId, status, headers, rateLimit, idempotentReplayed }
   * }`.
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#withResponse;
  }
}
