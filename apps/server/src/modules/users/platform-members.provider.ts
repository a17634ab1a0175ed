import { provide } from '../../kit/services.js';
import { PLATFORM_MEMBERS, type PlatformMembers } from '../platforms/index.js';
import { User } from './user.entity.js';

/** platform/id's user count and owner (the earliest user with role `owner`; null if none). */
const platformMembers: PlatformMembers = {
  async of(em, platformId) {
    const [totalUsers, owner] = await Promise.all([
      em.count(User, { platform: platformId }),
      em.findOne(
        User,
        { platform: platformId, role: 'owner' },
        { fields: ['name', 'email'], orderBy: { createdAt: 'asc', id: 'asc' } },
      ),
    ]);
    return { totalUsers, owner: owner ? { id: owner.id, name: owner.name, email: owner.email } : null };
  },
};

export const platformMembersService = provide({ key: PLATFORM_MEMBERS, start: () => platformMembers });
