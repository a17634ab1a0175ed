// The SDK's public API, and nothing else: the client, its errors, pagination, webhook verification, and the named
// types of the API.
export { createClient, type ClientOptions, type SwitchboardClient } from './create-client.js';
export type { ReadOptions, RequestOptions } from './request-options.js';
export {
  ApiConnectionError,
  AuthenticationError,
  IdempotencyError,
  InvalidRequestError,
  isSwitchboardError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SwitchboardError,
  type ConnectionErrorCode,
  type HttpErrorCode,
  type SwitchboardErrorCode,
} from './errors.js';
export type { EventStream, EventStreamOptions, StreamedEvent, StreamRetry } from './event-stream.js';
export type { GetMethod } from './get-method.js';
export type { EndpointError, ListMethod, ListMethodOptionalParams, Method, MethodOptionalParams } from './method.js';
export { paginate, type PagedMethod, type PageIterable, type PageParams } from './paginate.js';
export type { APIPromise, RateLimitInfo, ResponseInfo, WithResponse } from './response.js';
export type { RetryOptions } from './retry.js';
export type { AppInfo } from './settings.js';
export type { WebhookManageReply, WebhooksManageMethod } from './webhook-manage.js';
export {
  WebhookVerificationError,
  type WebhookBatchEvent,
  type WebhookHeaders,
  type WebhookVerificationReason,
} from './webhook-signature.js';
export { verifyWebhook, verifyWebhookBatch } from './webhooks.js';
export type * from './generated/api.js';
