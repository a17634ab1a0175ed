import { TEMPLATE_CATEGORIES, type Template } from '@switchboard/contract';
import { z } from 'zod';
import { countPlaceholders } from '../templates/index.js';

/** One entry of Graph's `GET /{waba-id}/message_templates` `data[]`, read tolerantly (Meta adds fields freely). */
export const metaTemplateSchema = z
  .object({
    name: z.string().min(1),
    status: z.string(),
    category: z.string(),
    language: z.string().min(1),
    components: z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()).default([]),
  })
  .passthrough();
export type MetaTemplate = z.infer<typeof metaTemplateSchema>;

/** A template as our `templates` table keeps it, keyed by (channel, name, language) when upserted. */
export type SyncedTemplate = Omit<Template, 'id'>;

/**
 * Meta's review status → ours. Templates Meta will not send right now and will not review (PAUSED, DISABLED,
 * PENDING_DELETION) and any status Meta adds later are left out, so they stop being listed.
 */
const STATUS_MAP: Record<string, SyncedTemplate['status']> = {
  APPROVED: 'approved',
  PENDING: 'pending',
  IN_APPEAL: 'pending',
  REJECTED: 'rejected',
};

const isCategory = (value: string): value is SyncedTemplate['category'] =>
  (TEMPLATE_CATEGORIES as readonly string[]).includes(value);

/** The row for one Meta template, or undefined when it must not be listed (status or category we do not list). */
export function toSyncedTemplate(template: MetaTemplate): SyncedTemplate | undefined {
  const status = STATUS_MAP[template.status.toUpperCase()];
  const category = template.category.toUpperCase();
  if (status === undefined || !isCategory(category)) return undefined;
  const body = template.components.find((component) => component.type.toUpperCase() === 'BODY')?.text ?? '';
  return {
    name: template.name,
    language: template.language,
    category,
    status,
    body,
    variableCount: countPlaceholders(body),
  };
}

/** Our columns' limits (templates.name 200, language 20; PostgreSQL text takes no NUL): beyond them, left out. */
const fitsColumns = (row: SyncedTemplate) =>
  row.name.length <= 200 &&
  row.language.length <= 20 &&
  ![row.name, row.language, row.body].some((text) => text.includes('\u0000'));

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
