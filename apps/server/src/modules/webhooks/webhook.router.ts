import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { listDeliveries } from './webhook-deliveries.service.js';
import { listEndpoints } from './webhook-endpoints.service.js';
import { manageWebhook } from './webhook-manage.service.js';
import { WEBHOOK_POLICY } from '../webhook-transport/index.js';
import { WEBHOOK_SECRETS } from './webhook-secret-box.js';

export function webhooksRouter({ em, logger, jobs, services }: RouteDeps) {
  const deps = { policy: services.get(WEBHOOK_POLICY), secrets: services.get(WEBHOOK_SECRETS), jobs };
  return {
    list: implement<typeof contract.platform.webhooks.list>(em, logger, async (params, ctx) => {
      const data = await listEndpoints(ctx, params.platformId, params.endpointId);
      return { success: true, data, total: data.length };
    }),
    manage: implement<typeof contract.platform.webhooks.manage>(em, logger, async (params, ctx) => ({
      success: true,
      ...(await manageWebhook(ctx, params.platformId, params, deps)),
    })),
    deliveries: implement<typeof contract.platform.webhooks.deliveries>(em, logger, async (params, ctx) => ({
      success: true,
      ...(await listDeliveries(ctx, params.platformId, params)),
    })),
  };
}
