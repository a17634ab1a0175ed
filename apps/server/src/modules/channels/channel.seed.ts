import { CHANNEL_STATUSES, phoneParam } from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Platform } from '../platforms/index.js';
import { User } from '../users/index.js';
import { Channel } from './channel.entity.js';

export const channelsSeed = seedSection({
  key: 'channels',
  item: z
    .object({
      ref: seedRef.optional(),
      platform: seedRef,
      name: z.string().min(1).max(200),
      phone: phoneParam(),
      status: z.enum(CHANNEL_STATUSES).default('active'),
      users: z.array(seedRef).default([]),
    })
    .strict(),
  async load(ctx, item, path) {
    const platform = await ctx.ref('platforms', Platform, item.platform, `${path}.platform`);
    const channel = ctx.em.create(Channel, { platform, name: item.name, phone: item.phone, status: item.status });
    for (const [j, userRef] of item.users.entries()) {
      const user = await ctx.ref('users', User, userRef, `${path}.users[${j}]`);
      if (user.platform.id !== platform.id)
        throw new SeedError(`${path}.users[${j}]`, 'user belongs to another platform');
      channel.users.add(user);
    }
    return seededId(channel);
  },
});
