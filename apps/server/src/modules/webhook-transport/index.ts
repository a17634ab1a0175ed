import { defineModule } from '../../kit/module.js';
import { webhookPolicyService } from './webhook-policy.js';

export {
  checkDestination,
  DestinationConnection,
  pinnedLookup,
  systemResolver,
  type DestinationPolicy,
  type ResolveAll,
} from './destination.js';
export { postDeliveries, type PostOutcome, type PostTarget } from './webhook-post.js';
export { destinationPolicy, WEBHOOK_POLICY } from './webhook-policy.js';
export { inOverlap, newWebhookSecret, overlapEndsAt, signingSecrets } from './webhook-secrets.js';
export { assertWebhookUrl, resolveWithin } from './webhook-url.js';

/**
 * How one request leaves for a URL a tenant chose: the server-side request forgery guard (public addresses only,
 * unless ALLOW_HTTP_WEBHOOKS, connecting only to the addresses checked), Standard Webhooks signing secrets, and the
 * signed POST of a batch of webhook deliveries. The webhooks module decides what to post and when; WhatsApp's
 * template header samples are fetched through the same guard.
 */
export const webhookTransportModule = defineModule({
  name: 'webhook-transport',
  entities: [],
  services: [webhookPolicyService],
});
