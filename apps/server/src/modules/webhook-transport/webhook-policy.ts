import type { Config } from '../../config.js';
import { provide, serviceKey } from '../../kit/services.js';
import type { DestinationPolicy } from './destination.js';

/** The SSRF policy (ALLOW_HTTP_WEBHOOKS) for routers and the portal, which check URLs when they are written. */
export const WEBHOOK_POLICY = serviceKey<DestinationPolicy>('webhooks.policy');

/** The policy for every URL a tenant chooses and the server requests (webhooks, template header samples). */
export const destinationPolicy = (config: Pick<Config, 'ALLOW_HTTP_WEBHOOKS'>): DestinationPolicy => ({
  allowLocal: config.ALLOW_HTTP_WEBHOOKS,
});

export const webhookPolicyService = provide({
  key: WEBHOOK_POLICY,
  start: ({ config }): DestinationPolicy => destinationPolicy(config),
});
