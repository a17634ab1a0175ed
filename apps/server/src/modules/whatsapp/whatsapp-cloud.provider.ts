import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger.js';
import type {
  MessagingProvider,
  OutboundSessionMessage,
  OutboundTemplateMessage,
  TemplateSyncResult,
} from '../messages/index.js';
import { syncChannelTemplates } from './template-sync.service.js';
import { requireCredentials } from './whatsapp-credentials.js';
import { WHATSAPP_CLOUD, type WhatsApp } from './whatsapp.js';

/**
 * Sends through Meta's WhatsApp Cloud API with the channel's own stored credentials: one Graph call per message,
 * whose `wamid.` becomes the msgid. Refusals are ProviderErrors (graph-errors.ts), which the API answers as
 * 400/502/503. Progress (`sent`, `delivered`, …) comes back through Meta's status webhooks, not from here.
 */
export class WhatsAppCloudProvider implements MessagingProvider {
  readonly name = WHATSAPP_CLOUD;

  constructor(
    private readonly em: EntityManager,
    private readonly whatsApp: WhatsApp,
  ) {}

  async send(message: OutboundTemplateMessage): Promise<{ providerMessageId: string }> {
    const credentials = await requireCredentials(this.em.fork(), this.whatsApp, message.channelId);
    return this.whatsApp.graph.sendTemplate(credentials, message);
  }

  async sendSession(message: OutboundSessionMessage): Promise<{ providerMessageId: string }> {
    const credentials = await requireCredentials(this.em.fork(), this.whatsApp, message.channelId);
    return this.whatsApp.graph.sendSession(credentials, message);
  }

  async markRead(channelId: string, providerMessageId: string): Promise<void> {
    const credentials = await requireCredentials(this.em.fork(), this.whatsApp, channelId);
    await this.whatsApp.graph.markRead(credentials, providerMessageId);
  }

  syncTemplates(em: EntityManager, channelId: string, log: Logger): Promise<TemplateSyncResult> {
    return syncChannelTemplates({ em }, this.whatsApp, channelId, log);
  }

  /** The Graph client's connections belong to the WhatsApp service, which closes them. */
  async close(): Promise<void> {}
}
