import type { EndpointMetadata, RateClass } from '@switchboard/contract';

/** Per-call options of a write method. */
export interface WriteOptions {
  /**
   * Your own `Idempotency-Key` (1–255 printable ASCII characters), e.g. an order id, to make a write safe to
   * repeat across processes. Without it the SDK generates one per call.
   */
  idempotencyKey?: string | undefined;
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The rate classes of writes: the server stores their replies per Idempotency-Key for 24 h. */
export const WRITE_RATE_CLASSES: readonly RateClass[] = ['api_write', 'api_message', 'api_admin_write'];

export const isWrite = (metadata: Pick<EndpointMetadata, 'rateClass'>) =>
  WRITE_RATE_CLASSES.includes(metadata.rateClass);

/**
 * The header for one call: a write gets the caller's key or a fresh UUID, and the same value goes out on every
 * retry of that call, so a write whose reply was lost can be repeated and the server replays the first reply.
 */
export function idempotencyHeaders(
  metadata: Pick<EndpointMetadata, 'rateClass'>,
  options: WriteOptions | undefined,
): Record<string, string> {
  if (!isWrite(metadata)) return {};
  return { [IDEMPOTENCY_HEADER]: options?.idempotencyKey ?? globalThis.crypto.randomUUID() };
}
