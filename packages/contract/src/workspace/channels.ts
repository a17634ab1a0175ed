import { z } from 'zod';
import { endpoint, idSchema, listEnvelope, named, timestampSchema } from '../common/index.js';

export const CHANNEL_STATUSES = ['active', 'disconnected'] as const;

export const channelSchema = named(
  'Channel',
  z.object({
    id: idSchema,
    name: z.string(),
    phone: z.string().describe('Sender number, digits with country code'),
    status: z.enum(CHANNEL_STATUSES),
    createdAt: timestampSchema,
  }),
);
export type Channel = z.infer<typeof channelSchema>;

export const channelsContract = {
  list: endpoint({
    operation: 'workspace.channels.list',
    path: '/api/workspace/v1/channels/list',
    summary: 'List the channels this key may use',
    description: 'Returns the channels the key’s user is authorized for; their ids are the `channelId` values.',
    params: z.object({}),
    response: listEnvelope(channelSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    example: {},
  }),
};
