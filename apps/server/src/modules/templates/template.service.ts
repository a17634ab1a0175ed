import type { Template } from '@switchboard/contract';
import { NotFoundError, ValidationError } from '../../kit/errors.js';
import type { CallerContext } from '../../kit/context.js';
import { Channel } from '../channels/index.js';
import {
  type MessagingProviders,
  recordOutbound,
  requireProvider,
  type TemplateSyncResult,
} from '../messages/index.js';
import { Template as TemplateEntity } from './template.entity.js';

/** The channel's approved templates, by name then language. */
export async function listApprovedTemplates(ctx: CallerContext, channelId: string): Promise<Template[]> {
  const templates = await ctx.em.find(
    TemplateEntity,
    { channel: channelId, status: 'approved' },
    {
      fields: ['name', 'category', 'language', 'status', 'body', 'variableCount'],
      orderBy: { name: 'asc', language: 'asc' },
    },
  );
  return templates.map((t) => ({
    id: t.id,
    name: t.name,
    category: t.category,
    language: t.language,
    status: t.status,
    body: t.body,
    variableCount: t.variableCount,
  }));
}

export interface TemplateSend {
  to: string;
  templateName: string;
  variables: string[];
  language?: string;
}

interface SendableTemplate {
  language: string;
  variableCount: number;
  provider: string;
}

/** The approved template to send: by name, in `language` when given; a name in several languages needs one. */
async function sendableTemplate(
  ctx: CallerContext,
  channelId: string,
  name: string,
  language?: string,
): Promise<SendableTemplate> {
  const templates = await ctx.em.find(
    TemplateEntity,
    { channel: channelId, name, status: 'approved', ...(language === undefined ? {} : { language }) },
    { fields: ['language', 'variableCount', 'channel.provider'], populate: ['channel'], orderBy: { language: 'asc' } },
  );
  const rows: SendableTemplate[] = templates.map((t) => ({
    language: t.language,
    variableCount: t.variableCount,
    provider: t.channel.provider,
  }));
  if (rows.length === 0) {
    const where = language === undefined ? '' : ` in language "${language}"`;
    throw new NotFoundError(
      'template_not_found',
      `No approved template "${name}"${where} in this channel (see chat/templates/list).`,
    );
  }
  if (rows.length > 1) {
    throw ValidationError.field(
      'language',
      `is required: template "${name}" exists in ${rows.map((r) => r.language).join(', ')}`,
    );
  }
  return rows[0]!;
}

/**
 * Checks the send against the template, hands it to the channel's provider and records it under the provider's
 * message id (recordOutbound says what happens when recording fails after the provider accepted).
 */
export async function sendTemplate(
  ctx: CallerContext,
  providers: MessagingProviders,
  channelId: string,
  send: TemplateSend,
) {
  const template = await sendableTemplate(ctx, channelId, send.templateName, send.language);
  if (send.variables.length !== template.variableCount) {
    const expected = `${template.variableCount} value${template.variableCount === 1 ? '' : 's'}`;
    throw ValidationError.field(
      'variables',
      `template "${send.templateName}" expects ${expected}, got ${send.variables.length}`,
    );
  }
  const provider = requireProvider(providers, template.provider);
  const message = {
    channelId,
    to: send.to,
    templateName: send.templateName,
    language: template.language,
    variables: send.variables,
  };
  const { providerMessageId } = await provider.send(message);
  await recordOutbound(ctx, {
    ...message,
    msgid: providerMessageId,
    provider: provider.name,
    type: 'template',
  });
  return { msgid: providerMessageId, status: 'accepted' as const, to: send.to, templateName: send.templateName };
}

/** What chat/templates/sync did: the counts, and which kind of provider the channel has. */
export type TemplateSyncOutcome = TemplateSyncResult & { provider: string };

/**
 * Pulls the channel's templates from its provider (WhatsApp Cloud API). A provider with nothing to pull (the
 * sandbox: its templates come from the seed file) reports 0 synced and the channel's approved templates.
 */
export async function syncTemplates(
  ctx: CallerContext,
  providers: MessagingProviders,
  channelId: string,
): Promise<TemplateSyncOutcome> {
  const { provider } = await ctx.em.findOneOrFail(Channel, channelId, { fields: ['provider'] });
  const syncing = providers.get(provider);
  if (syncing?.syncTemplates) return { ...(await syncing.syncTemplates(ctx.em, channelId, ctx.log)), provider };
  const approved = await ctx.em.count(TemplateEntity, { channel: channelId, status: 'approved' });
  return { synced: 0, approved, provider };
}
