import { defineModule } from '../../kit/module.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { webhookTarget } from './webhook.service.js';

/** Outbound webhooks: endpoints (seeded with their platform, or `pnpm cli webhook add`), deliveries, attempts. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  entities: [WebhookEndpoint, WebhookDelivery, WebhookAttempt],
  jobs: ({ config }) => ({ targets: [webhookTarget(config.WEBHOOK_TIMEOUT_MS, { allowLocal: config.ALLOW_HTTP_WEBHOOKS })] }),
});
