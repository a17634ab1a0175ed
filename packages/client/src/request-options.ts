import type { WriteOptions } from './idempotency.js';

/** Per-call options, beside the endpoint's parameters (`idempotencyKey` applies to writes). */
export interface RequestOptions extends WriteOptions {
  /**
   * Milliseconds before this call gives up (ApiConnectionError, code `timeout`); default: the client's
   * `timeoutMs`.
   */
  timeout?: number | undefined;
  /** Aborts the call (ApiConnectionError, code `aborted`), also while it waits to retry. */
  signal?: AbortSignal | undefined;
}
