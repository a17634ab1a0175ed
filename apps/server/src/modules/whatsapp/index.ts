import { defineModule } from '../../kit/module.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { whatsAppService } from './whatsapp.js';

/**
 * Channels carried by Meta's WhatsApp Cloud API: their encrypted credentials, the Graph client, template sync and
 * Meta's inbound webhooks. The messages module's provider registry sends through it.
 */
export const whatsAppModule = defineModule({
  name: 'whatsapp',
  entities: [WhatsAppConnection],
  services: [whatsAppService],
});
