import type { Platform } from '@switchboard/contract';
import type { ServiceContext } from '../../kit/context.js';
import { NotFoundError } from '../../kit/errors.js';
import { User } from '../users/user.entity.js';
import { Platform as PlatformEntity } from './platform.entity.js';

/** The caller's platform with its user count and owner (the earliest user with role `owner`; null if none). */
export async function getPlatform(ctx: ServiceContext): Promise<Platform> {
  const { em } = ctx;
  const platformId = ctx.caller.platformId;
  const [platform, totalUsers, owner] = await Promise.all([
    em.findOne(PlatformEntity, platformId, { fields: ['name', 'domain', 'isActive'] }),
    em.count(User, { platform: platformId }),
    em.findOne(User, { platform: platformId, role: 'owner' }, { fields: ['name', 'email'], orderBy: { createdAt: 'asc', id: 'asc' } }),
  ]);
  // Users cascade with their platform, so a key always has one; this guards a row deleted mid-request.
  if (!platform) throw new NotFoundError('not_found', 'The platform of this API key no longer exists.');
  return {
    id: platform.id,
    name: platform.name,
    domain: platform.domain,
    isActive: platform.isActive,
    totalUsers,
    owner: owner ? { id: owner.id, name: owner.name, email: owner.email } : null,
  };
}
