import type { EntityManager } from '@mikro-orm/postgresql';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from '@switchboard/contract';
import { AppError, ValidationError } from '../../kit/errors.js';
import type { Logger } from '../../logger.js';
import {
  SendNotMadeError,
  type MediaContent,
  type MediaFile,
  type MessagingProvider,
  type OutboundSessionMessage,
  type OutboundTemplateMessage,
  type ProviderTemplateRef,
  type SubmittedTemplate,
  type TemplateDraft,
  type ReadOptions,
  type TemplateSyncResult,
} from '../messages/index.js';
import { templateComponents, templateStatusOf, fetchHeaderSample } from '../whatsapp-graph/index.js';
import { syncChannelTemplates } from './template-sync.service.js';
import { requireCredentials, type StoredCredentials } from './whatsapp-credentials.js';
import { WHATSAPP_CLOUD, type WhatsApp } from './whatsapp.js';

const categoryOr = (category: string | undefined, fallback: TemplateCategory): TemplateCategory =>
  (TEMPLATE_CATEGORIES as readonly string[]).includes(category?.toUpperCase() ?? '')
    ? (category!.toUpperCase() as TemplateCategory)
    : fallback;

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
    const credentials = await this.credentialsToSend(message.channelId);
    return this.whatsApp.graph.sendTemplate(credentials, message);
  }

  async sendSession(message: OutboundSessionMessage): Promise<{ providerMessageId: string }> {
    const credentials = await this.credentialsToSend(message.channelId);
    return this.whatsApp.graph.sendSession(credentials, message);
  }

  /**
   * The channel's credentials for a send, read before any Graph call: a refusal (not connected, secrets unreadable)
   * stays the send's answer, but a failed read (the database) means nothing reached Meta, which the pipeline must
   * know so as to send the message later rather than record it lost.
   */
  private async credentialsToSend(channelId: string) {
    try {
      return await requireCredentials(this.em.fork(), this.whatsApp, channelId);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new SendNotMadeError(error);
    }
  }

  async markRead(channelId: string, providerMessageId: string, options?: ReadOptions): Promise<void> {
    const credentials = await requireCredentials(this.em.fork(), this.whatsApp, channelId);
    await this.whatsApp.graph.markRead(credentials, providerMessageId, options);
  }

  syncTemplates(em: EntityManager, channelId: string, log: Logger): Promise<TemplateSyncResult> {
    return syncChannelTemplates({ em }, this.whatsApp, channelId, log);
  }

  async createTemplate(em: EntityManager, channelId: string, draft: TemplateDraft): Promise<SubmittedTemplate> {
    const credentials = await requireCredentials(em, this.whatsApp, channelId);
    const reviewed = { ...draft, header: await this.headerForReview(credentials, draft) };
    const created = await this.whatsApp.graph.createTemplate(credentials, {
      name: draft.name,
      language: draft.language,
      category: draft.category,
      components: templateComponents(reviewed),
    });
    return {
      providerTemplateId: created.id,
      status: templateStatusOf(created.status) ?? 'pending',
      category: categoryOr(created.category, draft.category),
      header: reviewed.header,
    };
  }

  async editTemplate(
    em: EntityManager,
    channelId: string,
    template: ProviderTemplateRef,
    draft: TemplateDraft,
  ): Promise<SubmittedTemplate> {
    const credentials = await requireCredentials(em, this.whatsApp, channelId);
    if (template.providerTemplateId === null) {
      throw new AppError(503, 'service_unavailable', 'This template has no Meta id yet: sync the channel’s templates.');
    }
    const reviewed = { ...draft, header: await this.headerForReview(credentials, draft) };
    await this.whatsApp.graph.editTemplate(credentials.accessToken, template.providerTemplateId, {
      category: draft.category,
      components: templateComponents(reviewed),
    });
    return {
      providerTemplateId: template.providerTemplateId,
      status: 'pending',
      category: draft.category,
      header: reviewed.header,
    };
  }

  async deleteTemplates(
    em: EntityManager,
    channelId: string,
    templates: ProviderTemplateRef[],
    all: boolean,
  ): Promise<void> {
    const credentials = await requireCredentials(em, this.whatsApp, channelId);
    const [first] = templates;
    if (all || first === undefined) {
      await this.whatsApp.graph.deleteTemplate(credentials, first?.name ?? '');
      return;
    }
    await this.whatsApp.graph.deleteTemplate(credentials, first.name, first.providerTemplateId ?? undefined);
  }

  /**
   * The header as Meta reviews it: a media header given by `mediaUrl` is fetched and uploaded on the channel's Meta
   * app first (Meta takes an upload handle, not a link), and the handle is what is submitted and stored.
   */
  private async headerForReview(credentials: StoredCredentials, draft: TemplateDraft) {
    const header = draft.header;
    if (!header || !('mediaUrl' in header) || header.mediaUrl === undefined) return header;
    if (credentials.appId === undefined) {
      throw ValidationError.field(
        'header',
        'a media header’s sample is uploaded with Meta’s resumable upload API, which needs the channel’s Meta app ' +
          'ID: connect the channel again with it (`pnpm cli channel connect … --app-id`, or the Developer Portal’s ' +
          'Channels page → Rotate credentials → App ID)',
      );
    }
    const sample = await fetchHeaderSample(header.mediaUrl, header.format, this.whatsApp.samples);
    const handle = await this.whatsApp.graph.uploadFile(credentials.accessToken, credentials.appId, sample);
    return { format: header.format, example: handle };
  }

  async describeMedia(em: EntityManager, channelId: string, mediaId: string): Promise<MediaFile> {
    const credentials = await requireCredentials(em, this.whatsApp, channelId);
    const { mimeType, size, url } = await this.whatsApp.graph.getMedia(credentials, mediaId);
    return { mimeType, size: size ?? null, location: url };
  }

  /**
   * Downloads from Graph's short-lived URL as chat/media/get found it (kept with the link, which lives no longer
   * than the URL), so opening a link costs no lookup; without one (a link from before), it is asked for anew.
   */
  async openMedia(em: EntityManager, channelId: string, mediaId: string, described?: MediaFile): Promise<MediaContent> {
    const credentials = await requireCredentials(em, this.whatsApp, channelId);
    const media = described?.location
      ? { url: described.location, mimeType: described.mimeType, size: described.size }
      : await this.whatsApp.graph.getMedia(credentials, mediaId);
    const download = await this.whatsApp.graph.downloadMedia(credentials.accessToken, media.url);
    return {
      mimeType: media.mimeType,
      size: download.contentLength ?? media.size ?? null,
      body: download.body,
    };
  }

  /** The Graph client's connections belong to the WhatsApp service, which closes them. */
  async close(): Promise<void> {}
}
