import type { Platform } from '@switchboard/contract';
import { NotFoundError } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';

/** The caller's platform with its user count and owner (the earliest user with role `owner`; null if none). */
export async function getPlatform(ctx: RequestContext): Promise<Platform> {
  const [platform] = await ctx.em.execute<Platform[]>(
    `select p.id, p.name, p.domain, p.is_active as "isActive",
            (select count(*)::int from users u where u.platform_id = p.id) as "totalUsers",
            (select json_build_object('id', o.id, 'name', o.name, 'email', o.email)
               from users o where o.platform_id = p.id and o.role = 'owner'
              order by o.created_at, o.id limit 1) as owner
       from platforms p where p.id = ?`,
    [ctx.caller.platformId],
  );
  // Users cascade with their platform, so a key always has one; this guards a row deleted mid-request.
  if (!platform) throw new NotFoundError('not_found', 'The platform of this API key no longer exists.');
  return platform;
}
