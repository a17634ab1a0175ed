import { z } from 'zod';
import { endpoint, idSchema, listEnvelope, named, timestampSchema } from '../common/index.js';

export const CHANNEL_STATUSES = ['active', 'disconnected'] as const;
/** Meta's quality rating of a phone number or a template: how recipients react to its messages. */
export const QUALITY_RATINGS = ['green', 'yellow', 'red', 'unknown'] as const;
export type QualityRating = (typeof QUALITY_RATINGS)[number];

export const channelSchema = named(
  'Channel',
  z.object({
    id: idSchema,
    name: z.string(),
    phone: z.string().describe('Sender number, digits with country code'),
    status: z.enum(CHANNEL_STATUSES),
    quality: z
      .enum(QUALITY_RATINGS)
      .describe('Meta’s quality rating of the number (`unknown` until Meta reports one; always so on the sandbox)'),
    messagingLimit: z
      .string()
      .nullable()
      .describe(
        'Meta’s messaging tier as Meta sends it, e.g. `TIER_1K` (customers a day in business-initiated ' +
          'conversations); null until known',
      ),
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
