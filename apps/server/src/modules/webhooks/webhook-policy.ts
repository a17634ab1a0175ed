import { provide, serviceKey } from '../../kit/services.js';
import type { DestinationPolicy } from './destination.js';

/** The SSRF policy (ALLOW_HTTP_WEBHOOKS) for routers and the portal, which check URLs when they are written. */
export const WEBHOOK_POLICY = serviceKey<DestinationPolicy>('webhooks.policy');

export const webhookPolicyService = provide({
  key: WEBHOOK_POLICY,
  start: ({ config }): DestinationPolicy => ({ allowLocal: config.ALLOW_HTTP_WEBHOOKS }),
});
