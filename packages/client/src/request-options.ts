import type { WriteOptions } from './idempotency.js';

/** Per-call options of a write method: a read's, and its `idempotencyKey`. */
export interface RequestOptions extends ReadOptions, WriteOptions {}

/** Per-call options, beside the endpoint's parameters (a read takes no `idempotencyKey`: it is never stored). */
export interface ReadOptions {
  /**
   * Milliseconds before this call gives up (ApiConnectionError, code `timeout`); default: the client's
   * `timeoutMs`.
   */
  timeout?: number | undefined;
  /** Aborts the call (ApiConnectionError, code `aborted`), also while it waits to retry. */
  signal?: AbortSignal | undefined;
}
