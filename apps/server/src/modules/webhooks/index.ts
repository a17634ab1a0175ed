import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WEBHOOK_SECRETS, webhookSecretsService } from './webhook-secret-box.js';
import { webhooksRouter } from './webhook.router.js';
import { platformWebhooksSeed } from './webhook.seed.js';
import { webhookDispatcher } from './webhook-dispatcher.js';

export { manageEndpoint } from './webhook-endpoints.service.js';

export { rekeyWebhookSecrets, WEBHOOK_SECRETS } from './webhook-secret-box.js';

export { WEBHOOK_SECRET_PATTERN } from './webhook.seed.js';
export { queueDeliveries } from './webhook-deliveries.service.js';

/**
 * Outbound webhooks: endpoints (webhooks/manage, the Developer Portal, the seed file or `pnpm cli webhook add`),
 * deliveries, attempts.
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  entities: [WebhookEndpoint, WebhookDelivery, WebhookAttempt],
  routes: [routes(contract.platform.webhooks, webhooksRouter)],
  seed: [platformWebhooksSeed],
  services: [webhookSecretsService],
  jobs: ({ config, services }) => ({
    targets: [],
    workers: [
      webhookDispatcher({
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        disableAfterHours: config.WEBHOOK_DISABLE_AFTER_HOURS,
        concurrency: config.WEBHOOK_CONCURRENCY,
        policy: { schedule: config.DELIVERY_RETRY_SCHEDULE, windowHours: config.DELIVERY_RETRY_HOURS },
        destinations: { allowLocal: config.ALLOW_HTTP_WEBHOOKS },
        secrets: services.get(WEBHOOK_SECRETS),
      }),
    ],
  }),
  metrics: { deliveryFailures: { kind: 'webhook', count: (em) => em.count(WebhookDelivery, { status: 'failed' }) } },
  examples: {
    webhookEndpointId: {
      of: async (em, viewer) =>
        (
          await em.findOne(
            WebhookEndpoint,
            { platform: viewer.platformId },
            { fields: ['id'], orderBy: { createdAt: 'asc', id: 'asc' } },
          )
        )?.id,
    },
  },
});
