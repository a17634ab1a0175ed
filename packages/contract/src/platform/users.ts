import { z } from 'zod';
import {
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  named,
  pageEnvelope,
  pagingParams,
  timestampSchema,
} from '../common/index.js';
import { platformIdParam } from './platforms.js';

export const USER_ROLES = ['owner', 'admin', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const platformUserSchema = named(
  'PlatformUser',
  z.object({
    id: idSchema,
    name: z.string(),
    email: z.string(),
    role: z.enum(USER_ROLES),
    platformAccess: z.boolean().describe('Whether the user’s keys may call the Platform API'),
    permissions: z.array(z.string()),
    hasActiveSubscription: z.boolean().describe('Has an active base plan (add-ons can be assigned on top of it)'),
    createdAt: timestampSchema,
  }),
);
export type PlatformUser = z.infer<typeof platformUserSchema>;

export const usersListParams = z.object({
  platformId: platformIdParam,
  email: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(320, 'must be at most 320 characters')
    .optional()
    .describe('Only the user with this email (case-insensitive)'),
  role: z.enum(USER_ROLES).optional().describe('Only users with this role'),
  ...pagingParams('users'),
});
export type UsersListValues = z.output<typeof usersListParams>;

export const usersContract = {
  list: endpoint({
    operation: 'platform.users.list',
    path: '/api/platform/v1/users/list',
    summary: 'List users of the platform, paginated',
    description:
      'Oldest first. Never carries password hashes or API keys. Use an `id` as addon/manage’s `userId` or ' +
      'tickets/manage’s `assignedToId`.',
    params: usersListParams,
    response: pageEnvelope(platformUserSchema),
    rateClass: 'api_read',
    access: { scope: 'platform' },
    example: { platformId: EXAMPLE_IDS.platformId, role: 'owner', page: 1, limit: 50 },
  }),
};
