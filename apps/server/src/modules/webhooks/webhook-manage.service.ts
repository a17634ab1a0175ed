import type { WebhookDelivery, WebhookManageValues } from '@switchboard/contract';
import { REDELIVERY_QUEUED, redeliver } from './webhook-deliveries.service.js';
import { manageEndpoint, type EndpointWithSecret, type WebhookDeps } from './webhook-endpoints.service.js';
import type { ServiceContext } from '../../kit/context.js';

/** webhooks/manage: create, update, rotate, delete an endpoint of `platformId`, or redeliver one of its deliveries. */
export async function manageWebhook(
  { em }: ServiceContext,
  platformId: string,
  params: WebhookManageValues,
  deps: WebhookDeps,
): Promise<{ data: EndpointWithSecret | WebhookDelivery; message: string }> {
  if (params.action === 'redeliver')
    return { data: await redeliver({ em }, platformId, params.deliveryId), message: REDELIVERY_QUEUED };
  return manageEndpoint({ em }, platformId, params, deps);
}
