import type { EndpointMetadata, RateClass } from '@switchboard/contract';
import { connectionError, SwitchboardError } from './errors.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';

export interface RetryOptions {
  /** Total tries including the first. Default 3 (the client's `maxRetries`, when given, takes precedence). */
  attempts?: number | undefined;
  /**
   * Longest single wait. A `Retry-After` longer than this is not waited for: the 429 is thrown at once. Default 30 s.
   */
  maxDelayMs?: number | undefined;
  /** First backoff when the server gave no `Retry-After`; doubles on each further try (with jitter). Default 500 ms. */
  baseDelayMs?: number | undefined;
}

export type ResolvedRetry = { [K in keyof RetryOptions]-?: number };

const DEFAULT_RETRY: ResolvedRetry = { attempts: 3, maxDelayMs: 30_000, baseDelayMs: 500 };

/**
 * Reads are idempotent: the rate class in the contract says which endpoints only read (`api_read`), so a
 * read whose reply was lost can be sent again. A write may have taken effect before a connection broke, so it
 * is repeated only under an Idempotency-Key (the SDK sends one on every write): the server then replays the
 * first reply instead of writing again.
 */
const IDEMPOTENT_RATE_CLASSES: readonly RateClass[] = ['api_read'];

export const isIdempotent = (metadata: Pick<EndpointMetadata, 'rateClass'>, headers: Record<string, string> = {}) =>
  IDEMPOTENT_RATE_CLASSES.includes(metadata.rateClass) || IDEMPOTENCY_HEADER in headers;

/**
 * The client's retry bounds: on by default (2 retries, like openai-node); `maxRetries` sets the count (0 turns
 * retrying off), `retry: false` turns it off too, and `retry: {…}` keeps its earlier meaning (attempts = 1 + retries).
 */
export function resolveRetry(
  option: boolean | RetryOptions | undefined,
  maxRetries: number | undefined,
): ResolvedRetry | undefined {
  const chosen = typeof option === 'object' ? option : {};
  const attempts =
    maxRetries !== undefined ? maxRetries + 1 : option === false ? 1 : (chosen.attempts ?? DEFAULT_RETRY.attempts);
  if (!(attempts >= 2)) return undefined;
  return {
    attempts: Math.floor(attempts),
    maxDelayMs: Math.max(0, chosen.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs),
    baseDelayMs: Math.max(0, chosen.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs),
  };
}

/** Exponential backoff with "equal jitter": half fixed, half random, so many clients do not retry in lockstep. */
function backoff(retry: ResolvedRetry, attempt: number): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/**
 * How long to wait before trying again after `error` on try number `attempt` (from 1), or undefined to give up.
 * A 429 is always safe to repeat (the limiter refused the request before it ran); a network failure (status 0),
 * a 503 or a 409 for a key still in progress only for idempotent calls.
 */
function retryDelay(
  error: SwitchboardError,
  attempt: number,
  idempotent: boolean,
  retry: ResolvedRetry,
): number | undefined {
  if (attempt >= retry.attempts) return undefined;
  // 409 idempotency_key_in_progress: the first try of this write is still running on the server; its reply will be
  // replayed.
  const transient =
    error.status === 429 ||
    (idempotent && (error.status === 0 || error.status === 503 || error.code === 'idempotency_key_in_progress'));
  if (!transient || error.code === 'aborted') return undefined;
  if (error.retryAfter === undefined) return backoff(retry, attempt);
  const asked = error.retryAfter * 1000;
  return asked <= retry.maxDelayMs ? asked : undefined;
}

/**
 * Waits `ms`, or until `signal` aborts: then it fails as an aborted request does (ApiConnectionError `aborted`).
 */
function sleep(ms: number, signal: AbortSignal | undefined, operation: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(connectionError(signal?.reason, operation, { aborted: true }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** Runs `call`, repeating it while `retryDelay` says the failure is transient; `signal` also ends a wait. */
export async function withRetry<T>(
  call: () => Promise<T>,
  idempotent: boolean,
  retry: ResolvedRetry | undefined,
  signal: AbortSignal | undefined,
  operation: string,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const delay =
        retry && error instanceof SwitchboardError ? retryDelay(error, attempt, idempotent, retry) : undefined;
      if (delay === undefined) throw error;
      await sleep(delay, signal, operation);
    }
  }
}
