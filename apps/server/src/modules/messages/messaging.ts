import { provide, serviceKey } from '../../kit/services.js';
import { createMessagingProviders, type MessagingProviders } from './provider/providers.js';

/** The messaging providers by name: started with the server (their timers stop with it). */
export const MESSAGING = serviceKey<MessagingProviders>('messaging');

export const messagingService = provide({
  key: MESSAGING,
  start: ({ em, jobs, logger, config }) =>
    createMessagingProviders(em, jobs, logger, { sentAfterMs: config.SANDBOX_SENT_AFTER_MS, deliveredAfterMs: config.SANDBOX_DELIVERED_AFTER_MS }),
  stop: (providers) => providers.close(),
});
