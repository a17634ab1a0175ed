import { z } from 'zod';
import { SeedError, seedRef, seedSection } from '../../kit/seed.js';
import { Platform } from './platform.entity.js';

export const platformsSeed = seedSection({
  key: 'platforms',
  item: z
    .object({
      ref: seedRef.optional(),
      name: z.string().min(1).max(200),
      domain: z.string().min(1).max(253),
      isActive: z.boolean().default(true),
    })
    .strict(),
  async load({ em }, item, path) {
    if (await em.count(Platform, { domain: item.domain }))
      throw new SeedError(`${path}.domain`, `a platform with domain "${item.domain}" already exists`);
    const platform = em.create(Platform, { name: item.name, domain: item.domain, isActive: item.isActive });
    return { entity: platform, result: platform.id };
  },
});
