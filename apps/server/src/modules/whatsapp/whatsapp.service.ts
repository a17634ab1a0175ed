import { provide } from '../../kit/services.js';
import { MESSAGING } from '../messages/index.js';
import { WhatsAppCloudProvider } from './whatsapp-cloud.provider.js';
import { checkStoredSecrets, createWhatsApp, WHATSAPP } from './whatsapp.js';

/**
 * Starts the Graph client and registers the WhatsApp Cloud API with the messaging providers (sends, template syncs).
 */
export const whatsAppService = provide({
  key: WHATSAPP,
  start: ({ config, em, services, secrets }) => {
    const whatsApp = createWhatsApp(config, secrets);
    services.get(MESSAGING).register(new WhatsAppCloudProvider(em, whatsApp));
    return whatsApp;
  },
  check: (whatsApp, { em }) => checkStoredSecrets(em.fork(), whatsApp),
  stop: (whatsApp) => whatsApp.graph.close(),
});
