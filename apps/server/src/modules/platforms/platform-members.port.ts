import type { EntityManager } from '@mikro-orm/postgresql';
import type { Platform } from '@switchboard/contract';
import { serviceKey } from '../../kit/services.js';

/** Who is on a platform, as platform/id reports it. */
type PlatformMembership = Pick<Platform, 'totalUsers' | 'owner'>;

/** The port platform/id reads its members through: platforms sit below users, so the users module provides it. */
export interface PlatformMembers {
  of(em: EntityManager, platformId: string): Promise<PlatformMembership>;
}

export const PLATFORM_MEMBERS = serviceKey<PlatformMembers>('platforms.members');
