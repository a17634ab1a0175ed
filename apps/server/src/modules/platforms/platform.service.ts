import type { Platform } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { NotFoundError } from '../../kit/errors.js';
import type { PlatformMembers } from './platform-members.port.js';
import { Platform as PlatformEntity } from './platform.entity.js';

/** The caller's platform with its user count and owner (the earliest user with role `owner`; null if none). */
export async function getPlatform(ctx: CallerContext, members: PlatformMembers): Promise<Platform> {
  const platformId = ctx.caller.platformId;
  const [platform, membership] = await Promise.all([
    ctx.em.findOne(PlatformEntity, platformId, { fields: ['name', 'domain', 'isActive'] }),
    members.of(ctx.em, platformId),
  ]);
  // Users cascade with their platform, so a key always has one; this guards a row deleted mid-request.
  if (!platform) throw new NotFoundError('not_found', 'The platform of this API key no longer exists.');
  return { id: platform.id, name: platform.name, domain: platform.domain, isActive: platform.isActive, ...membership };
}
