import type { Label, LabelLookupValues } from '@switchboard/contract';
import { LockMode } from '@mikro-orm/core';
import { raw } from '@mikro-orm/postgresql';
import type { CallerContext, ServiceContext } from '../../kit/context.js';
import { NotFoundError } from '../../kit/errors.js';
import { assertInChannel, type ScopedChannel } from '../channels/index.js';
import { Label as LabelEntity } from './label.entity.js';

const LABEL_FIELDS = ['channel', 'name', 'description', 'color', 'sortOrder'] as const;

const toLabel = (l: Pick<LabelEntity, 'id' | (typeof LABEL_FIELDS)[number]>): Label => ({
  id: l.id,
  channelId: l.channel.id,
  name: l.name,
  description: l.description ?? null,
  color: l.color ?? null,
  sortOrder: l.sortOrder,
});

export async function listLabels(ctx: CallerContext, channelId: string): Promise<Label[]> {
  const labels = await ctx.em.find(
    LabelEntity,
    { channel: channelId },
    { fields: LABEL_FIELDS, orderBy: { sortOrder: 'asc', name: 'asc', id: 'asc' } },
  );
  return labels.map(toLabel);
}

/**
 * The ids of the channel's labels named `names` (exact names), by name; names without a label are absent from
 * the map, unless `createMissing`: then they are created first (defaults as labels/manage gives a new label), with
 * ON CONFLICT so a concurrent creation of the same name is not an error.
 */
export async function labelIdsByName(
  { em }: ServiceContext,
  channelId: string,
  names: readonly string[],
  createMissing: boolean,
): Promise<Map<string, string>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return new Map();
  if (createMissing) {
    await em
      .createQueryBuilder(LabelEntity)
      .insert(unique.map((name) => ({ channel: channelId, name })))
      .onConflict(['channel', 'name'])
      .ignore()
      .execute('run');
  }
  const labels = await em.find(LabelEntity, { channel: channelId, name: { $in: unique } }, { fields: ['name'] });
  return new Map(labels.map((label) => [label.name, label.id]));
}

/**
 * labels/delete: the label, by name in the channel or by id (see assertInChannel), locked and deleted; its assignments
 * to
 * contacts go with it (contact_labels cascades). Returns the label as it was.
 */
export async function deleteLabel(
  ctx: CallerContext,
  channel: ScopedChannel,
  lookup: LabelLookupValues,
): Promise<Label> {
  return ctx.em.transactional(async (tx) => {
    const where = lookup.labelId !== undefined ? { id: lookup.labelId } : { channel: channel.id, name: lookup.name };
    // Locked: of two concurrent deletes of one label, the second finds nothing (404).
    const label = await tx.findOne(LabelEntity, where, { fields: LABEL_FIELDS, lockMode: LockMode.PESSIMISTIC_WRITE });
    const notFound = () =>
      new NotFoundError('label_not_found', `No label ${lookup.labelId ?? `named "${lookup.name}"`} in this channel.`);
    assertInChannel(ctx, channel, label?.channel.id, notFound);
    await tx.nativeDelete(LabelEntity, { id: label!.id, channel: channel.id });
    return toLabel(label!);
  });
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
 * inserted, which tells created from updated: the one raw fragment, because entity properties alone need an
 * insert-or-ignore and then an update, a second round trip that measured slower (docs/benchmarks.md, "Figures
 * behind code choices") and would need a retry for a label deleted in between.
 */
export async function upsertLabel(
  ctx: CallerContext,
  channelId: string,
  changes: LabelChanges,
): Promise<{ label: Label; created: boolean }> {
  const merged = Object.fromEntries(
    SETTABLE.filter((key) => changes[key] !== undefined).map((key) => [key, changes[key]]),
  );
  const row = await ctx.em
    .createQueryBuilder(LabelEntity)
    .insert({
      channel: channelId,
      name: changes.name,
      description: changes.description ?? null,
      color: changes.color ?? null,
      sortOrder: changes.sortOrder ?? 0,
    })
    .onConflict(['channel', 'name'])
    .merge({ ...merged, updatedAt: new Date() })
    // Library seam: `returning` is typed for entity fields only; MikroORM passes a raw fragment through as written.
    .returning([
      'id',
      'channel',
      'name',
      'description',
      'color',
      'sortOrder',
      raw('(xmax = 0) as created') as unknown as 'id',
    ])
    .execute<UpsertedRow>('get');
  const { channel, created, ...label } = row;
  return { label: { ...label, channelId: channel }, created };
}
