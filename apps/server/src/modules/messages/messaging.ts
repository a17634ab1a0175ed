import { provide, serviceKey } from '../../kit/services.js';
import { WhatsAppCloudProvider } from '../whatsapp/whatsapp-cloud.provider.js';
import { WHATSAPP } from '../whatsapp/whatsapp.js';
import { createMessagingProviders, type MessagingProviders } from './provider/providers.js';

/** The messaging providers by name (a channel's `provider` picks one): started with the server (their timers stop with it). */
export const MESSAGING = serviceKey<MessagingProviders>('messaging');

export const messagingService = provide({
  key: MESSAGING,
  start: ({ em, jobs, logger, config, services }) =>
    createMessagingProviders(em, jobs, logger, { sentAfterMs: config.SANDBOX_SENT_AFTER_MS, deliveredAfterMs: config.SANDBOX_DELIVERED_AFTER_MS }, [
      new WhatsAppCloudProvider(em, services.get(WHATSAPP)),
    ]),
  stop: (providers) => providers.close(),
});
