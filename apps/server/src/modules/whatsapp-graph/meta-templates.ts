import { QUALITY_RATINGS, TEMPLATE_CATEGORIES, type QualityRating, type TemplateStatus } from '@switchboard/contract';
import { z } from 'zod';
import { countPlaceholders, type Template, type StoredButton, type StoredHeader } from '../templates/index.js';

/** One entry of Graph's `GET /{waba-id}/message_templates` `data[]`, read tolerantly (Meta adds fields freely). */
export const metaTemplateSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String).optional(),
    name: z.string().min(1),
    status: z.string(),
    category: z.string(),
    language: z.string().min(1),
    components: z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()).default([]),
    quality_score: z.object({ score: z.string() }).passthrough().optional(),
    rejected_reason: z.string().optional(),
  })
  .passthrough();
export type MetaTemplate = z.infer<typeof metaTemplateSchema>;

/** A template as our `templates` table keeps it from Meta, keyed by (channel, name, language) when upserted. */
export type SyncedTemplate = Pick<
  Template,
  | 'name'
  | 'language'
  | 'category'
  | 'status'
  | 'body'
  | 'variableCount'
  | 'bodyExamples'
  | 'header'
  | 'footer'
  | 'buttons'
  | 'rejectedReason'
  | 'quality'
  | 'providerTemplateId'
>;

/** Meta's review status → ours; a status Meta adds later is left out (not stored, so not listed). */
const STATUS_MAP: Record<string, TemplateStatus> = {
  APPROVED: 'approved',
  PENDING: 'pending',
  IN_APPEAL: 'in_appeal',
  REJECTED: 'rejected',
  PAUSED: 'paused',
  DISABLED: 'disabled',
  PENDING_DELETION: 'pending_deletion',
};

/** Meta's status as ours, or undefined for one we do not know. */
export const templateStatusOf = (status: string): TemplateStatus | undefined => STATUS_MAP[status.toUpperCase()];

/** Meta's quality score (GREEN, YELLOW, RED, UNKNOWN) as ours; anything else is `unknown`. */
export function qualityOf(score: string | undefined): QualityRating {
  const quality = score?.toLowerCase();
  return (QUALITY_RATINGS as readonly string[]).includes(quality ?? '') ? (quality as QualityRating) : 'unknown';
}

const isCategory = (value: string): value is SyncedTemplate['category'] =>
  (TEMPLATE_CATEGORIES as readonly string[]).includes(value);

const firstString = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? (Array.isArray(value[0]) ? value[0][0] : value[0]) : value;
  return typeof first === 'string' ? first : undefined;
};
const stringAt = (object: unknown, key: string): string | undefined => {
  const value = (object as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : undefined;
};
const withExample = <T extends object>(part: T, example: string | undefined): T & { example?: string } =>
  example === undefined ? part : { ...part, example };

function headerOf(component: Record<string, unknown> | undefined): StoredHeader | null {
  const format = stringAt(component, 'format')?.toLowerCase();
  const example = component?.example as Record<string, unknown> | undefined;
  if (format === 'text') {
    const text = stringAt(component, 'text') ?? '';
    return withExample({ format, text } as const, firstString(example?.header_text));
  }
  if (format === 'image' || format === 'video' || format === 'document')
    return withExample({ format } as const, firstString(example?.header_handle));
  return format === 'location' ? { format } : null;
}

/** Meta's buttons as ours; kinds we do not carry (flows, OTP, catalog…) are left out. */
function buttonsOf(component: Record<string, unknown> | undefined): StoredButton[] {
  const buttons = Array.isArray(component?.buttons) ? (component.buttons as Record<string, unknown>[]) : [];
  return buttons.flatMap((button): StoredButton[] => {
    const text = stringAt(button, 'text') ?? '';
    const example = firstString(button.example);
    switch (stringAt(button, 'type')?.toUpperCase()) {
      case 'QUICK_REPLY':
        return [{ type: 'quick_reply', text }];
      case 'URL':
        return [withExample({ type: 'url' as const, text, url: stringAt(button, 'url') ?? '' }, example)];
      case 'PHONE_NUMBER':
        return [{ type: 'phone_number', text, phoneNumber: stringAt(button, 'phone_number') ?? '' }];
      case 'COPY_CODE':
        return [withExample({ type: 'copy_code' as const }, example)];
      default:
        return [];
    }
  });
}

/** The row for one Meta template, or undefined when it must not be stored (status or category we do not know). */
export function toSyncedTemplate(template: MetaTemplate): SyncedTemplate | undefined {
  const status = templateStatusOf(template.status);
  const category = template.category.toUpperCase();
  if (status === undefined || !isCategory(category)) return undefined;
  const component = (type: string) =>
    template.components.find((candidate) => candidate.type.toUpperCase() === type) as
      (Record<string, unknown> & { text?: string }) | undefined;
  const body = component('BODY');
  const bodyExample = (body?.example as { body_text?: unknown } | undefined)?.body_text;
  const reason = template.rejected_reason;
  return {
    name: template.name,
    language: template.language,
    category,
    status,
    body: body?.text ?? '',
    variableCount: countPlaceholders(body?.text ?? ''),
    bodyExamples: Array.isArray(bodyExample) && Array.isArray(bodyExample[0]) ? bodyExample[0].map(String) : [],
    header: headerOf(component('HEADER')),
    footer: component('FOOTER')?.text ?? null,
    buttons: buttonsOf(component('BUTTONS')),
    rejectedReason: status === 'rejected' && reason && reason !== 'NONE' ? reason : null,
    quality: qualityOf(template.quality_score?.score),
    providerTemplateId: template.id ?? null,
  };
}

/** Our columns' limits (templates.name 200, language 20; PostgreSQL text takes no NUL): beyond them, left out. */
const fitsColumns = (row: SyncedTemplate) =>
  row.name.length <= 200 &&
  row.language.length <= 20 &&
  (row.providerTemplateId?.length ?? 0) <= 64 &&
  !JSON.stringify(row).includes('\\u0000');

/**
 * The rows a sync upserts, one per (name, language) (the first, should Meta list one twice); everything else the
 * channel had before is what disappeared from Meta.
 */
export function syncedTemplates(templates: MetaTemplate[]): SyncedTemplate[] {
  const rows = new Map<string, SyncedTemplate>();
  for (const template of templates) {
    const row = toSyncedTemplate(template);
    const key = row && `${row.name}\u0000${row.language}`;
    if (row && key && fitsColumns(row) && !rows.has(key)) rows.set(key, row);
  }
  return [...rows.values()];
}
