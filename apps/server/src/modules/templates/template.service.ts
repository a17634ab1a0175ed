import type {
  Template,
  TemplateCategory,
  TemplateSendButton,
  TemplateSendHeader,
  TemplateSendResult,
  TemplateStatus,
} from '@switchboard/contract';
import { BadRequestError, NotFoundError, ValidationError } from '../../kit/errors.js';
import type { CallerContext, Logger, ServiceContext } from '../../kit/context.js';
import { Channel } from '../channels/index.js';
import { Contact as ContactEntity } from '../contacts/index.js';
import type { MessagingProviders, TemplateSyncResult } from '../messages/index.js';
import { queueSend, type SendNow } from '../sending/index.js';
import { Template as TemplateEntity } from './template.entity.js';
import { publicParts, type StoredButton, type StoredHeader } from './template-parts.js';
import { templateSendParts } from './template-send-parts.js';

/** A stored template as the API shows it. */
export function templateView(t: TemplateEntity): Template {
  return {
    id: t.id,
    name: t.name,
    category: t.category,
    language: t.language,
    status: t.status,
    body: t.body,
    variableCount: t.variableCount,
    ...publicParts({ header: t.header ?? null, buttons: t.buttons }),
    footer: t.footer ?? null,
    rejectedReason: t.rejectedReason ?? null,
    quality: t.quality,
  };
}

/** The channel's templates in one status (or all), by name then language. */
export async function listTemplates(
  ctx: CallerContext,
  channelId: string,
  status: TemplateStatus | 'all',
): Promise<Template[]> {
  const templates = await ctx.em.find(
    TemplateEntity,
    { channel: channelId, ...(status === 'all' ? {} : { status }) },
    { orderBy: { name: 'asc', language: 'asc' } },
  );
  return templates.map(templateView);
}

/**
 * What sending needs: the API's caller context with the hand-over at once, or an automation's transaction and
 * logger (its sends go after its run commits).
 */
export type SendContext = ServiceContext & { log: Logger; sendNow?: SendNow };

export interface TemplateSend {
  to: string;
  templateName: string;
  variables: string[];
  language?: string;
  /** The template header's value (a media file, a text variable), when it needs one. */
  header?: TemplateSendHeader;
  /** The template buttons' values by index. */
  buttons?: TemplateSendButton[];
  /** Send later, through the send pipeline (status `scheduled` until then). */
  scheduledAt?: string;
}

interface SendableTemplate {
  language: string;
  category: TemplateCategory;
  variableCount: number;
  provider: string;
  header: StoredHeader | null;
  buttons: StoredButton[];
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
    {
      fields: ['language', 'category', 'variableCount', 'header', 'buttons', 'channel.provider'],
      populate: ['channel'],
      orderBy: { language: 'asc' },
    },
  );
  if (templates.length === 0) {
    const where = language === undefined ? '' : ` in language "${language}"`;
    throw new NotFoundError(
      'template_not_found',
      `No approved template "${name}"${where} in this channel (see chat/templates/list).`,
    );
  }
  if (templates.length > 1) {
    throw ValidationError.field(
      'language',
      `is required: template "${name}" exists in ${templates.map((t) => t.language).join(', ')}`,
    );
  }
  const [t] = templates;
  return {
    language: t!.language,
    category: t!.category,
    variableCount: t!.variableCount,
    provider: t!.channel.provider,
    header: t!.header ?? null,
    buttons: t!.buttons,
  };
}

/**
 * A template a later send (a broadcast, a scheduled message) would use must be approved now: one of that name in
 * another state (pending, paused, …) is 400 `template_not_approved`; a name the channel does not have at all is left
 * to the caller's own not-found answer.
 */
export async function assertTemplateApproved(
  em: ServiceContext['em'],
  channelId: string,
  name: string,
  language?: string,
): Promise<void> {
  const where = { channel: channelId, name, ...(language === undefined ? {} : { language }) };
  const templates = await em.find(TemplateEntity, where, { fields: ['status', 'language'] });
  if (templates.length === 0 || templates.some((t) => t.status === 'approved')) return;
  const states = [...new Set(templates.map((t) => t.status))].join(', ');
  throw new BadRequestError(
    'template_not_approved',
    `Template "${name}" is ${states}, not approved: it cannot be sent until Meta approves it (chat/templates/list).`,
  );
}

/**
 * Marketing needs consent: a contact who opted out (a stop word) or was blocked gets no MARKETING template, with no
 * provider call. Transactional categories (UTILITY, AUTHENTICATION) still go: an order update is owed.
 */
async function assertMayMarket(ctx: ServiceContext, channelId: string, to: string, template: SendableTemplate) {
  if (template.category !== 'MARKETING') return;
  const contact = await ctx.em.findOne(ContactEntity, { channel: channelId, phone: to }, { fields: ['status'] });
  if (contact?.status === 'unsubscribed')
    throw new BadRequestError('contact_unsubscribed', `${to} unsubscribed from this channel: no MARKETING templates.`);
  if (contact?.status === 'blocked')
    throw new BadRequestError('contact_blocked', `${to} is blocked in this channel: no MARKETING templates.`);
}

/** The send checked against the template and the recipient's consent: what the provider (or the pipeline) gets. */
async function checkedTemplateSend(ctx: ServiceContext, channelId: string, send: TemplateSend) {
  if (send.scheduledAt !== undefined) await assertTemplateApproved(ctx.em, channelId, send.templateName, send.language);
  const template = await sendableTemplate(ctx, channelId, send.templateName, send.language);
  if (send.variables.length !== template.variableCount) {
    const expected = `${template.variableCount} value${template.variableCount === 1 ? '' : 's'}`;
    throw ValidationError.field(
      'variables',
      `template "${send.templateName}" expects ${expected}, got ${send.variables.length}`,
    );
  }
  const { parts, problems } = templateSendParts(template, send);
  if (problems.length > 0) throw new ValidationError(problems);
  await assertMayMarket(ctx, channelId, send.to, template);
  const message = {
    channelId,
    to: send.to,
    templateName: send.templateName,
    language: template.language,
    variables: send.variables,
  };
  return { template, message, parts };
}

/**
 * Checks the send against the template and the recipient's consent, then queues it for the send pipeline: in the
 * caller's transaction for an automation's run or a scheduled send (sent after commit, or at its time), or committed
 * at once and handed over in the request when the channel has budget now (`ctx.sendNow`: `accepted`, under the
 * provider's id), else `queued` for the dispatcher.
 */
export async function sendTemplate(
  ctx: SendContext,
  channelId: string,
  send: TemplateSend,
  options: { automationId?: string } = {},
): Promise<TemplateSendResult> {
  const { template, message, parts } = await checkedTemplateSend(ctx, channelId, send);
  const reply = { to: send.to, templateName: send.templateName };
  const scheduledAt = send.scheduledAt === undefined ? undefined : new Date(send.scheduledAt);
  const queued = {
    ...message,
    templateParts: Object.keys(parts).length > 0 ? parts : null,
    type: 'template' as const,
    contactId: null,
    automationId: options.automationId ?? null,
    scheduledAt,
    needsConsent: template.category === 'MARKETING',
  };
  if (scheduledAt) {
    const { msgid } = await queueSend(ctx.em, queued);
    return { msgid, status: 'scheduled', scheduledAt: scheduledAt.toISOString(), ...reply };
  }
  if (!ctx.sendNow) return { msgid: (await queueSend(ctx.em, queued)).msgid, status: 'queued', ...reply };
  const { sendNow } = ctx;
  sendNow.requireProvider(template.provider);
  const sent = await sendNow.send(async (sendingBy) => ({
    ...(await ctx.em.transactional((tx) => queueSend(tx, { ...queued, sendingBy }))),
    channelId,
  }));
  return { ...sent, ...reply };
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
