import type { Label } from '@switchboard/contract';
import { raw } from '@mikro-orm/postgresql';
import type { ServiceContext } from '../../kit/context.js';
import { Label as LabelEntity } from './label.entity.js';

export async function listLabels(ctx: ServiceContext, channelId: string): Promise<Label[]> {
  const labels = await ctx.em.find(
    LabelEntity,
    { channel: channelId },
    { fields: ['channel', 'name', 'description', 'color', 'sortOrder'], orderBy: { sortOrder: 'asc', name: 'asc', id: 'asc' } },
  );
  return labels.map((l) => ({ id: l.id, channelId: l.channel.id, name: l.name, description: l.description ?? null, color: l.color ?? null, sortOrder: l.sortOrder }));
}

export interface LabelChanges {
  name: string;
  description?: string | null;
  color?: string | null;
  sortOrder?: number;
}

/** What a caller may set; only those present in a request are touched on update. */
const SETTABLE = ['description', 'color', 'sortOrder'] as const;

interface UpsertedRow {
  id: string;
  channel: string;
  name: string;
  description: string | null;
  color: string | null;
  sortOrder: number;
  created: boolean;
}

/**
 * Upsert by exact name in one statement: the unique (channel, name) index plus ON CONFLICT make two
 * concurrent upserts of one name meet on one row, never two. `xmax = 0` holds only for a row this statement
 * inserted, which tells created from updated without a second query.
 */
export async function upsertLabel(ctx: ServiceContext, channelId: string, changes: LabelChanges): Promise<{ label: Label; created: boolean }> {
  const merged = Object.fromEntries(SETTABLE.filter((key) => changes[key] !== undefined).map((key) => [key, changes[key]]));
  const row = await ctx.em
    .createQueryBuilder(LabelEntity)
    .insert({ channel: channelId, name: changes.name, description: changes.description ?? null, color: changes.color ?? null, sortOrder: changes.sortOrder ?? 0 })
    .onConflict(['channel', 'name'])
    .merge({ ...merged, updatedAt: raw('now()') })
    // `returning` is typed for entity fields only; a raw fragment is what MikroORM passes through as written.
    .returning(['id', 'channel', 'name', 'description', 'color', 'sortOrder', raw('(xmax = 0) as created') as unknown as 'id'])
    .execute<UpsertedRow>('get');
  const { channel, created, ...label } = row;
  return { label: { ...label, channelId: channel }, created };
}
