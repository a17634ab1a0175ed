import type { Template } from '@switchboard/contract';
import { AfterEffectError, AppError, NotFoundError, ValidationError } from '../../kit/errors.js';
import type { CallerContext, Logger, ServiceContext } from '../../kit/context.js';
import { Channel } from '../channels/index.js';
import { type MessagingProviders, recordOutboundTemplate, type TemplateSyncResult } from '../messages/index.js';
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

/** What sending needs: the API's caller context, or an automation's transaction and logger. */
export type SendContext = ServiceContext & { log: Logger };

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
  ctx: ServiceContext,
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
 * message id. The provider goes first because its id is the msgid; a send it refuses leaves no record behind.
 *
 * Nothing reaches the provider before the request is fully validated and its record can be stored: every column
 * of the row comes from the validated parameters (the contract refuses NUL and bounds `to` and each variable) or
 * from the template row itself, so only the database can refuse the insert now. If it does after the provider
 * accepted (database gone in between, a provider id we cannot store), the message is out and unrecorded: that is
 * logged at error level with its msgid, and the caller gets a 503 that names the msgid and says not to resend
 * blindly. Like every 503 it carries Retry-After; the reply is kept for its Idempotency-Key, so a retry under the
 * same key gets it again instead of a second message. No half-written row is left either way.
 */
export async function sendTemplate(
  ctx: SendContext,
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
  const provider = providers.get(template.provider);
  if (!provider) {
    throw new AppError(
      503,
      'service_unavailable',
      `This channel's messaging provider "${template.provider}" is not configured.`,
    );
  }
  const message = {
    channelId,
    to: send.to,
    templateName: send.templateName,
    language: template.language,
    variables: send.variables,
  };
  const { providerMessageId } = await provider.send(message);
  try {
    await recordOutboundTemplate(ctx, message, provider.name, providerMessageId);
  } catch (error) {
    ctx.log.error(
      {
        err: error,
        msgid: providerMessageId,
        provider: provider.name,
        channelId,
        to: send.to,
        templateName: send.templateName,
      },
      'SENT BUT NOT RECORDED: the provider accepted this message, storing it failed; reconcile by msgid',
    );
    throw new AfterEffectError(
      503,
      'service_unavailable',
      `The provider accepted the message (msgid ${providerMessageId}) but it could not be recorded, so ` +
        `chat/message/status will not know it. It may still be delivered: do not resend it without checking.`,
    );
  }
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
