import { z } from 'zod';
import {
  channelScoped,
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  listEnvelope,
  named,
  timestampSchema,
} from '../common/index.js';

export const AUTOMATION_STATUSES = ['active', 'paused', 'draft'] as const;

export const automationSchema = named(
  'Automation',
  z.object({
    id: idSchema,
    name: z.string(),
    status: z.enum(AUTOMATION_STATUSES),
    executionCount: z.number().int(),
    createdAt: timestampSchema,
  }),
);
export type Automation = z.infer<typeof automationSchema>;

export const automationsContract = {
  list: endpoint({
    operation: 'workspace.automations.list',
    path: '/api/workspace/v1/automations/list',
    summary: 'List automations of a channel',
    description: 'Newest first.',
    params: z.object({ ...channelScoped }),
    response: listEnvelope(automationSchema),
    rateClass: 'api_read',
    access: { scope: 'workspace' },
    errors: ['no_channel'],
    example: { channelId: EXAMPLE_IDS.channelId },
  }),
};
