import { TEMPLATE_CATEGORIES, type Template } from '@switchboard/contract';
import { z } from 'zod';
import { countPlaceholders } from '../templates/template.placeholders.js';

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

/** The rows a sync upserts; everything else the channel had before is what disappeared from Meta. */
export function syncedTemplates(templates: MetaTemplate[]): SyncedTemplate[] {
  return templates.map(toSyncedTemplate).filter((row): row is SyncedTemplate => row !== undefined);
}
