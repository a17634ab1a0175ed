import { USER_ROLES } from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seedRef, seedSection } from '../../kit/seed.js';
import { Platform } from '../platforms/index.js';
import { hashPassword } from './password.js';
import { User } from './user.entity.js';

/** How users created by this seed file are found by later sections: `platformId:email`. */
export const userKey = (platformId: string, email: string) => `${platformId}:${email}`;

export const usersSeed = seedSection({
  key: 'users',
  item: z
    .object({
      ref: seedRef.optional(),
      platform: seedRef,
      email: z.string().email(),
      name: z.string().min(1).max(200),
      role: z.enum(USER_ROLES).default('member'),
      platformAccess: z.boolean().default(false),
      permissions: z.array(z.string().min(1)).default([]),
      password: z.string().min(8, 'must be at least 8 characters').optional(),
    })
    .strict(),
  async load(ctx, item, path) {
    const { em } = ctx;
    const platform = await ctx.ref('platforms', Platform, item.platform, `${path}.platform`);
    const email = item.email.toLowerCase();
    const created = ctx.created(User);
    const key = userKey(platform.id, email);
    if (created.has(key) || (await em.count(User, { platform, email }))) {
      throw new SeedError(`${path}.email`, `a user with email "${email}" already exists in this platform`);
    }
    const user = em.create(User, {
      platform,
      email,
      name: item.name,
      role: item.role,
      platformAccess: item.platformAccess,
      permissions: item.permissions,
      passwordHash: item.password ? await hashPassword(item.password) : null,
    });
    created.set(key, user);
    return { entity: user, result: { id: user.id } };
  },
});
