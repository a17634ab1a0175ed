// The SDK's public API, and nothing else: the client, its errors, paginate, and the named types of the API.
export { createClient, type ClientOptions, type RequestOptions, type SwitchboardClient } from './create-client.js';
export {
  ApiConnectionError,
  AuthenticationError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SwitchboardError,
  type ConnectionErrorCode,
  type HttpErrorCode,
  type SwitchboardErrorCode,
} from './errors.js';
export { paginate } from './paginate.js';
export type { RetryOptions } from './retry.js';
export type * from './generated/api.js';
