import { provide, serviceKey } from '../../kit/services.js';
import { createMessagingProviders, type MessagingProviders } from './messaging-providers.js';

/**
 * The messaging providers by name (a channel's `provider` picks one): started with the server, closed with it (the
 * sandbox's timers stop then). The modules that carry channels (sandbox, whatsapp) register their providers here.
 */
export const MESSAGING = serviceKey<MessagingProviders>('messaging');

export const messagingService = provide({
  key: MESSAGING,
  start: () => createMessagingProviders(),
  stop: (providers) => providers.close(),
});
