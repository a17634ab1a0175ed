export { createClient, type ClientOptions, type ClientTree, type EndpointMethod, type SwitchboardClient } from './create-client.js';
export { SwitchboardError } from './errors.js';
export { paginate, type PagedItem, type PagedMethod, type PagedParams } from './paginate.js';
export { DEFAULT_RETRY, IDEMPOTENT_RATE_CLASSES, isIdempotent, type RetryOptions } from './retry.js';
export * from '@switchboard/contract';
