import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookDelivery, WebhookManageValues } from '@switchboard/contract';
import { ValidationError, type FieldIssue } from '../../kit/errors.js';
import { REDELIVERY_QUEUED, redeliver } from './webhook-deliveries.service.js';
import { manageEndpoint, type EndpointWithSecret, type WebhookDeps } from './webhook-endpoints.service.js';

const CHANGES = ['url', 'events', 'description', 'enabled', 'rotateSecret'] as const;

/** Which operation the parameters ask for (redeliver, create, delete, update), and what does not go with it. */
function checkCombination(params: WebhookManageValues): void {
  const issues: FieldIssue[] = [];
  const given = (field: keyof WebhookManageValues) => params[field] !== undefined;
  const refuse = (fields: readonly (keyof WebhookManageValues)[], problem: string) => {
    for (const field of fields) if (given(field)) issues.push({ field, problem });
  };
  if (given('redeliver')) {
    refuse(['endpointId', ...CHANGES, 'delete'], 'cannot be combined with redeliver (the delivery names its endpoint)');
  } else if (!given('endpointId')) {
    for (const field of ['url', 'events'] as const) {
      if (!given(field)) issues.push({ field, problem: 'is required to create an endpoint (no endpointId given)' });
    }
    refuse(['rotateSecret', 'delete'], 'applies to an existing endpoint: pass endpointId');
  } else if (params.delete) {
    refuse(CHANGES, 'cannot be combined with delete');
  }
  if (issues.length) throw new ValidationError(issues);
}

/** webhooks/manage: create, update, rotate, delete an endpoint of `platformId`, or redeliver one of its deliveries. */
export async function manageWebhook(
  em: EntityManager,
  platformId: string,
  params: WebhookManageValues,
  deps: WebhookDeps,
): Promise<{ data: EndpointWithSecret | WebhookDelivery; message: string }> {
  checkCombination(params);
  if (params.redeliver !== undefined) return { data: await redeliver(em, platformId, params.redeliver, deps.jobs), message: REDELIVERY_QUEUED };
  return manageEndpoint(em, platformId, params, deps);
}
