import type { Template, TemplateDeletion, TemplateManageValues } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { BadRequestError, NotFoundError } from '../../kit/errors.js';
import { Channel } from '../channels/index.js';
import {
  requireProvider,
  type MessagingProviders,
  type ProviderTemplateRef,
  type SubmittedTemplate,
  type TemplateDraft,
  type TemplateDraftHeader,
} from '../messages/index.js';
import { nextEditAllowedAt } from './template-edits.js';
import type { TemplateUses } from './template-uses.port.js';
import { Template as TemplateEntity } from './template.entity.js';
import { countPlaceholders } from './template-placeholders.js';
import { templateView } from './template.service.js';

type CreateValues = Extract<TemplateManageValues, { action: 'create' }>;
type UpdateValues = Extract<TemplateManageValues, { action: 'update' }>;
type DeleteValues = Extract<TemplateManageValues, { action: 'delete' }>;

/** Meta keeps a deleted template's name for this long. */
const NAME_REUSE_DAYS = 30;
const DAY_MS = 24 * 3_600_000;
/** States Meta lets a template be edited in. */
const EDITABLE = new Set(['approved', 'rejected', 'paused']);

/** What a template stores of what it submitted to the provider and of the provider's answer. */
const submittedFields = (draft: TemplateDraft, submitted: SubmittedTemplate) => ({
  category: submitted.category,
  status: submitted.status,
  body: draft.body,
  variableCount: countPlaceholders(draft.body),
  bodyExamples: draft.bodyExamples,
  header: submitted.header,
  footer: draft.footer,
  buttons: draft.buttons,
});

const draftHeader = (header: CreateValues['header'] | null): TemplateDraftHeader | null => {
  if (!header) return null;
  if (header.format === 'text') return header;
  return header.format === 'location' ? header : { format: header.format, mediaUrl: header.mediaUrl };
};

async function channelProvider(ctx: CallerContext, providers: MessagingProviders, channelId: string) {
  const { provider } = await ctx.em.findOneOrFail(Channel, channelId, { fields: ['provider'] });
  return requireProvider(providers, provider);
}

/** Submits a new template to the channel's provider, then stores it as the provider answered. */
export async function createTemplate(
  ctx: CallerContext,
  providers: MessagingProviders,
  channelId: string,
  values: CreateValues,
): Promise<Template> {
  const { name, language } = values;
  if ((await ctx.em.count(TemplateEntity, { channel: channelId, name, language })) > 0) {
    throw new BadRequestError(
      'template_exists',
      `Template "${name}" exists in ${language} already: update it, or choose another name.`,
    );
  }
  const draft: TemplateDraft = {
    name,
    language,
    category: values.category,
    body: values.body.text,
    bodyExamples: values.body.examples ?? [],
    header: draftHeader(values.header),
    footer: values.footer ?? null,
    buttons: values.buttons ?? [],
  };
  const provider = await channelProvider(ctx, providers, channelId);
  const submitted = await provider.createTemplate(ctx.em, channelId, draft);
  const template = ctx.em.create(TemplateEntity, {
    channel: channelId,
    name,
    language,
    ...submittedFields(draft, submitted),
    providerTemplateId: submitted.providerTemplateId,
    approvedEdits: [],
  });
  await ctx.em.flush();
  return templateView(template);
}

async function findTemplate(ctx: CallerContext, channelId: string, templateId: string) {
  const template = await ctx.em.findOne(TemplateEntity, { id: templateId, channel: channelId });
  if (!template) throw new NotFoundError('template_not_found', 'No template with this templateId in this channel.');
  return template;
}

/** The stored template with the parts an update gives replaced: what the provider reviews again. */
function editedDraft(template: TemplateEntity, values: UpdateValues): TemplateDraft {
  return {
    name: template.name,
    language: template.language,
    category: values.category ?? template.category,
    body: values.body?.text ?? template.body,
    bodyExamples: values.body ? (values.body.examples ?? []) : template.bodyExamples,
    header: values.header === undefined ? (template.header ?? null) : draftHeader(values.header),
    footer: values.footer === undefined ? (template.footer ?? null) : values.footer,
    buttons: values.buttons ?? template.buttons,
  };
}

const providerRef = (template: TemplateEntity): ProviderTemplateRef => ({
  name: template.name,
  language: template.language,
  providerTemplateId: template.providerTemplateId ?? null,
});

/** Submits a template's changed parts for review again, within Meta's states and edit budget. */
export async function updateTemplate(
  ctx: CallerContext,
  providers: MessagingProviders,
  channelId: string,
  values: UpdateValues,
): Promise<Template> {
  const template = await findTemplate(ctx, channelId, values.templateId);
  if (!EDITABLE.has(template.status)) {
    throw new BadRequestError(
      'template_not_editable',
      `Template "${template.name}" is ${template.status}: only an approved, rejected or paused template can be edited.`,
    );
  }
  const now = new Date();
  const edits = template.approvedEdits.filter((at) => now.getTime() - Date.parse(at) < 30 * DAY_MS);
  if (template.status === 'approved') {
    const next = nextEditAllowedAt(edits, now);
    if (next) {
      throw new BadRequestError(
        'template_edit_limit',
        `An approved template can be edited once a day and 10 times in 30 days: template "${template.name}" can be ` +
          `edited again at ${next.toISOString()}.`,
      );
    }
  }
  const draft = editedDraft(template, values);
  const provider = await channelProvider(ctx, providers, channelId);
  const submitted = await provider.editTemplate(ctx.em, channelId, providerRef(template), draft);
  ctx.em.assign(template, {
    ...submittedFields(draft, submitted),
    rejectedReason: null,
    approvedEdits: template.status === 'approved' ? [...edits, now.toISOString()] : edits,
  });
  await ctx.em.flush();
  return templateView(template);
}

/** Deletes one language (templateId) or every language (name) at the provider and here, unless still in use. */
export async function deleteTemplate(
  ctx: CallerContext & { uses: TemplateUses },
  providers: MessagingProviders,
  channelId: string,
  values: DeleteValues,
): Promise<TemplateDeletion> {
  const templates = values.templateId
    ? [await findTemplate(ctx, channelId, values.templateId)]
    : await ctx.em.find(TemplateEntity, { channel: channelId, name: values.name! }, { orderBy: { language: 'asc' } });
  if (templates.length === 0)
    throw new NotFoundError('template_not_found', `No template "${values.name}" in this channel.`);
  const [first] = templates;
  const language = values.templateId ? first!.language : undefined;
  const use = await ctx.uses.useOf(ctx.em, channelId, first!.name, language);
  if (use) {
    throw new BadRequestError('template_in_use', `Template "${first!.name}" is in use by ${use}: cancel it first.`);
  }
  const provider = await channelProvider(ctx, providers, channelId);
  await provider.deleteTemplates(ctx.em, channelId, templates.map(providerRef), values.name !== undefined);
  await ctx.em.nativeDelete(TemplateEntity, { id: { $in: templates.map((t) => t.id) } });
  return {
    name: first!.name,
    deleted: templates.map((t) => ({ id: t.id, language: t.language })),
    reusableAfter: new Date(Date.now() + NAME_REUSE_DAYS * DAY_MS).toISOString(),
  };
}
