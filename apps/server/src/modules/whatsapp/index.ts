import { defineModule } from '../../kit/module.js';
import { WhatsAppInboundDelivery } from './inbound-delivery.entity.js';
import { inboundDeliveryTarget } from './inbound-delivery.service.js';
import { inboundRetentionTask } from './inbound-retention.js';
import { whatsAppReceivers } from './inbound.receiver.js';
import { templateSyncTasks } from './template-sync.jobs.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { WHATSAPP, whatsAppService } from './whatsapp.js';

export { requestTemplateSync } from './template-sync.service.js';

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
  jobs: ({ config, logger, services }) => ({
    targets: [inboundDeliveryTarget(logger)],
    tasks: [...templateSyncTasks(services.get(WHATSAPP), config.TEMPLATE_SYNC_MINUTES), inboundRetentionTask],
  }),
});
