import type { Pagination, PlatformUser, UsersListValues } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import type { PlanHolders } from './plan-holders.port.js';
import { User } from './user.entity.js';

/**
 * users/list: the platform's users, oldest first, filtered by email (stored lowercase, so matched
 * case-insensitively) and role, each with whether it holds an active base plan. Never the password hash.
 */
export async function listUsers(
  ctx: CallerContext,
  planHolders: PlanHolders,
  query: UsersListValues,
): Promise<{ data: PlatformUser[]; pagination: Pagination }> {
  const { em } = ctx;
  const where = {
    platform: ctx.caller.platformId,
    ...(query.email !== undefined && { email: query.email.toLowerCase() }),
    ...(query.role !== undefined && { role: query.role }),
  };
  const [users, total] = await em.findAndCount(User, where, {
    fields: ['name', 'email', 'role', 'platformAccess', 'permissions', 'createdAt'],
    orderBy: { createdAt: 'asc', id: 'asc' },
    limit: query.limit,
    offset: offsetOf(query),
  });
  const withPlan = users.length
    ? await planHolders.among(
        em,
        users.map((u) => u.id),
      )
    : new Set<string>();
  const data = users.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    platformAccess: u.platformAccess,
    permissions: u.permissions,
    hasActiveSubscription: withPlan.has(u.id),
    createdAt: u.createdAt.toISOString(),
  }));
  return { data, pagination: paginationOf(query.page, query.limit, total) };
}
