import { defineModule } from '../../kit/module.js';
import { WhatsAppInboundDelivery } from './inbound-delivery.entity.js';
import { inboundDeliveryTarget } from './inbound-delivery.service.js';
import { whatsAppReceivers } from './inbound.receiver.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { whatsAppService } from './whatsapp.js';

/**
 * Channels carried by Meta's WhatsApp Cloud API: their encrypted credentials, the Graph client, template sync and
 * Meta's inbound webhooks (stored on receipt, applied by the `whatsapp.inbound` job). The messages module's provider
 * registry sends through it.
 */
export const whatsAppModule = defineModule({
  name: 'whatsapp',
  entities: [WhatsAppConnection, WhatsAppInboundDelivery],
  services: [whatsAppService],
  receivers: whatsAppReceivers,
  jobs: ({ logger }) => ({ targets: [inboundDeliveryTarget(logger)] }),
});
