import { defineModule } from '../../kit/module.js';
import { WhatsAppInboundDelivery } from './inbound-delivery.entity.js';
import { inboundDeliveryTarget } from './inbound-delivery.service.js';
import { inboundRetention } from './inbound-retention.js';
import { whatsAppReceivers } from './inbound-receiver.router.js';
import { phoneQualityTask } from './channel-health.js';
import { templateSyncSchedule, templateSyncTask } from './template-sync-tasks.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { channelProviderSeed } from './whatsapp.seed.js';
import { whatsAppService } from './whatsapp.service.js';
import { WHATSAPP } from './whatsapp.js';

export { requestTemplateSync } from './template-sync.service.js';
export { applyChannelHealth } from './channel-health.js';

export { syncChannelTemplates } from './template-sync.service.js';
export {
  connectWhatsAppChannel,
  connectWhatsAppChannelAs,
  listChannelConnections,
  type ChannelConnection,
} from './whatsapp-connection.service.js';
export { rekeyWhatsAppSecrets, whatsAppCredentialsSchema } from './whatsapp-credentials.js';
export { WHATSAPP, WHATSAPP_CLOUD } from './whatsapp.js';

/**
 * Channels carried by Meta's WhatsApp Cloud API: their encrypted credentials, the Graph client, template sync and
 * Meta's inbound webhooks (stored on receipt, applied by the `whatsapp.inbound` job). Its messaging provider joins the
 * messages module's registry when it starts.
 */
export const whatsAppModule = defineModule({
  name: 'whatsapp',
  entities: [WhatsAppConnection, WhatsAppInboundDelivery],
  seed: [channelProviderSeed],
  services: [whatsAppService],
  receivers: whatsAppReceivers,
  jobs: ({ config, logger, services }) => ({
    targets: [inboundDeliveryTarget(logger)],
    tasks: [templateSyncTask(services.get(WHATSAPP)), phoneQualityTask(services.get(WHATSAPP))],
    workers: [...templateSyncSchedule(config.TEMPLATE_SYNC_MINUTES), inboundRetention],
  }),
});
