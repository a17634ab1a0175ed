import { provide, serviceKey } from '../../kit/services.js';
import { createMessagingProviders, type MessagingProviders } from './messaging-providers.js';

/**
 * The messaging providers by name (a channel's `provider` picks one): started with the server (their timers stop
 * with it). The sandbox is built in; a module carrying real channels (whatsapp) registers its provider here.
 */
export const MESSAGING = serviceKey<MessagingProviders>('messaging');

export const messagingService = provide({
  key: MESSAGING,
  start: ({ em, jobs, logger, config }) =>
    createMessagingProviders(em, jobs, logger, {
      sentAfterMs: config.SANDBOX_SENT_AFTER_MS,
      deliveredAfterMs: config.SANDBOX_DELIVERED_AFTER_MS,
    }, config.SEND_RATE_PER_CHANNEL),
  stop: (providers) => providers.close(),
});
