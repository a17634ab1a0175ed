import type {
  WebhookChangeParams,
  WebhookCreateParams,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookRedeliverParams,
  WebhookRotateParams,
  WebhooksManageErrorCode,
  WebhooksManageResponse,
} from './generated/api.js';
import type { MethodOptionalParams } from './method.js';
import type { RequestOptions } from './request-options.js';
import type { APIPromise } from './response.js';

/** webhooks/manage's reply with `data` as the form of the call makes it. */
export type WebhookManageReply<Data> = Omit<WebhooksManageResponse, 'data'> & { data: Data };

/**
 * webhooks/manage, whose parameters decide what `data` is: creating an endpoint or rotating its secret gives the
 * endpoint with its new `secret` (shown this once), redelivering gives the delivery, an update or delete the endpoint.
 */
export interface WebhooksManageMethod extends Pick<
  MethodOptionalParams<never, never, WebhooksManageErrorCode>,
  'isError'
> {
  (params: WebhookCreateParams, options?: RequestOptions): APIPromise<WebhookManageReply<WebhookEndpointWithSecret>>;
  (params: WebhookRotateParams, options?: RequestOptions): APIPromise<WebhookManageReply<WebhookEndpointWithSecret>>;
  (params: WebhookRedeliverParams, options?: RequestOptions): APIPromise<WebhookManageReply<WebhookDelivery>>;
  (params: WebhookChangeParams, options?: RequestOptions): APIPromise<WebhookManageReply<WebhookEndpoint>>;
}
