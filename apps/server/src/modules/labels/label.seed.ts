import { labelManageParams } from '@switchboard/contract';
import { z } from 'zod';
import { contractFields, SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { Label } from './label.entity.js';

/** How labels created by this seed file are found by later sections (contacts): `channelId:name`. */
export const labelKey = (channelId: string, name: string) => `${channelId}:${name}`;

/** A label's fields as labels/manage takes them. */
const { name, description, color, sortOrder } = contractFields(labelManageParams);

export const labelsSeed = seedSection({
  key: 'labels',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      name,
      description,
      color,
      sortOrder: sortOrder.default(0),
    })
    .strict(),
  async load(ctx, item, path) {
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    const created = ctx.created(Label);
    const key = labelKey(channel.id, item.name);
    if (created.has(key)) throw new SeedError(`${path}.name`, `duplicate label "${item.name}" in this channel`);
    const label = ctx.em.create(Label, {
      channel,
      name: item.name,
      description: item.description ?? null,
      color: item.color ?? null,
      sortOrder: item.sortOrder,
    });
    created.set(key, label);
    return seededId(label);
  },
});
