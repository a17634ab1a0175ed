import { defineModule } from '../../kit/module.js';
import { templateSyncTasks } from './template-sync.jobs.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { WHATSAPP, whatsAppService } from './whatsapp.js';

export { requestTemplateSync } from './template-sync.service.js';

/**
 * Channels carried by Meta's WhatsApp Cloud API: their encrypted credentials, the Graph client, template sync and
 * Meta's inbound webhooks. The messages module's provider registry sends through it.
 */
export const whatsAppModule = defineModule({
  name: 'whatsapp',
  entities: [WhatsAppConnection],
  services: [whatsAppService],
  jobs: ({ config, services }) => ({ targets: [], tasks: templateSyncTasks(services.get(WHATSAPP), config.TEMPLATE_SYNC_MINUTES) }),
});
