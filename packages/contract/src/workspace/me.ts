import { z } from 'zod';
import { endpoint, idSchema, named, okEnvelope } from '../common/index.js';
import { USER_ROLES } from '../platform/users.js';
import { channelSchema } from './channels.js';

export const meSchema = named(
  'Me',
  z.object({
    id: idSchema.describe('The key’s user: the id `assigneeId`, `authorId` and the like take (or pass `me`)'),
    name: z.string(),
    email: z.string(),
    role: z.enum(USER_ROLES).describe('owner, admin or member of its platform'),
    platformAccess: z.boolean().describe('Whether the key may call the Platform API (`/api/platform/v1/…`)'),
    platformId: idSchema.describe('The platform the user belongs to (the `platformId` of Platform API calls)'),
    channels: z.array(channelSchema).describe('The channels the key may use, oldest first (as channels/list)'),
  }),
);
export type Me = z.infer<typeof meSchema>;

export const meContract = {
  me: endpoint({
    operation: 'workspace.me',
    path: '/api/workspace/v1/me',
    summary: 'Who this API key is: its user and channels',
    description:
      'The key’s own user (id, name, email, role, whether it has platform access) and the channels it may use. ' +
      'Where a parameter takes a user id (`assigneeId` of chat/conversations/manage and /list, `authorId` of ' +
      'chat/notes/list), `me` names this user without looking its id up.',
    params: z.object({}),
    response: okEnvelope(meSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    effects: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    example: {},
  }),
};
