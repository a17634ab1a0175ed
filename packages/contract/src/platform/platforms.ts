import { z } from 'zod';
import { endpoint, idSchema, named, okEnvelope, uuidParam } from '../common/index.js';

export const platformSchema = named(
  'Platform',
  z.object({
    id: idSchema,
    name: z.string(),
    domain: z.string(),
    isActive: z.boolean(),
    totalUsers: z.number().int(),
    owner: z.object({ id: idSchema, name: z.string(), email: z.string() }).nullable(),
  }),
);
export type Platform = z.infer<typeof platformSchema>;

/** `platformId` names the key's own platform; any other value gets 403. */
export const platformIdParam = uuidParam().describe('The platform id (from id/list)');

export const platformContract = {
  list: endpoint({
    operation: 'platform.id.list',
    path: '/api/platform/v1/id/list',
    summary: 'Platform details of this key',
    description:
      'The platform is the key’s own. Needs one of platform:view, platform:edit, platform:manage, instance:view.',
    params: z.object({}),
    response: okEnvelope(platformSchema),
    rateClass: 'api_read',
    access: {
      scope: 'platform',
      anyPermission: ['platform:view', 'platform:edit', 'platform:manage', 'instance:view'],
    },
    example: {},
  }),
};
