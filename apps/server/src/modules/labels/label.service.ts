import type { Label } from '@switchboard/contract';
import type { RequestContext } from '../../http/context.js';

const LABEL_COLUMNS = `id, channel_id as "channelId", name, description, color, sort_order as "sortOrder"`;

export async function listLabels(ctx: RequestContext, channelId: string): Promise<Label[]> {
  return ctx.em.execute<Label[]>(
    `select ${LABEL_COLUMNS} from labels where channel_id = ? order by sort_order, name, id`,
    [channelId],
  );
}

export interface LabelChanges {
  name: string;
  description?: string | null;
  color?: string | null;
  sortOrder?: number;
}

/** Columns a caller may set, by parameter name; only those present in a request are touched on update. */
const SETTABLE = { description: 'description', color: 'color', sortOrder: 'sort_order' } as const;

/**
 * Upsert by exact name in one statement: the unique (channel_id, name) index plus ON CONFLICT make two
 * concurrent upserts of one name meet on one row, never two. `xmax = 0` holds only for a row this statement
 * inserted, which tells created from updated without a second query.
 */
export async function upsertLabel(ctx: RequestContext, channelId: string, changes: LabelChanges): Promise<{ label: Label; created: boolean }> {
  const present = (Object.keys(SETTABLE) as (keyof typeof SETTABLE)[]).filter((key) => changes[key] !== undefined);
  const updates = [...present.map((key) => `${SETTABLE[key]} = excluded.${SETTABLE[key]}`), 'updated_at = now()'].join(', ');
  const [row] = await ctx.em.execute<(Label & { created: boolean })[]>(
    `insert into labels (channel_id, name, description, color, sort_order) values (?, ?, ?, ?, ?)
     on conflict (channel_id, name) do update set ${updates}
     returning ${LABEL_COLUMNS}, (xmax = 0) as created`,
    [channelId, changes.name, changes.description ?? null, changes.color ?? null, changes.sortOrder ?? 0],
  );
  const { created, ...label } = row!;
  return { label, created };
}
