import { defineModule } from '../../kit/module.js';
import { phoneQualityTask } from './channel-health.js';
import { templateSyncSchedule, templateSyncTask } from './template-sync-tasks.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { channelProviderSeed } from './whatsapp.seed.js';
import { whatsAppService } from './whatsapp.service.js';
import { WHATSAPP } from './whatsapp.js';

export { applyChannelHealth, requestPhoneQuality } from './channel-health.js';
export { requestTemplateSync, syncChannelTemplates } from './template-sync.service.js';
export {
  connectWhatsAppChannel,
  connectWhatsAppChannelAs,
  listChannelConnections,
  type ChannelConnection,
} from './whatsapp-connection.service.js';
export { WhatsAppConnection } from './whatsapp-connection.entity.js';
export { loadSecret, rekeyWhatsAppSecrets, whatsAppCredentialsSchema } from './whatsapp-credentials.js';
export { WHATSAPP, WHATSAPP_CLOUD, type ChannelSecretName } from './whatsapp.js';

/**
 * Channels carried by Meta's WhatsApp Cloud API: their connection and encrypted credentials, the messaging provider
 * (sends, media, template review on Graph through whatsapp-graph), template sync and the number's health. Its
 * provider joins the messages module's registry when it starts; Meta's webhooks are whatsapp-inbound's.
 */
export const whatsAppModule = defineModule({
  name: 'whatsapp',
  entities: [WhatsAppConnection],
  seed: [channelProviderSeed],
  services: [whatsAppService],
  jobs: ({ config, services }) => ({
    targets: [],
    tasks: [templateSyncTask(services.get(WHATSAPP)), phoneQualityTask(services.get(WHATSAPP))],
    workers: templateSyncSchedule(config.TEMPLATE_SYNC_MINUTES),
  }),
});
