import { z } from 'zod';
import { endpoint, EXAMPLE_IDS, idSchema, listEnvelope, named } from '../common/index.js';
import { platformIdParam } from './platform.js';

export const BILLING_CYCLES = ['monthly', 'quarterly', 'annual', 'onetime'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];
export const PLAN_ITEM_TYPES = ['plan', 'addon'] as const;

export const pricesSchema = named(
  'Prices',
  z
    .object({
      monthly: z.number().optional(),
      quarterly: z.number().optional(),
      annual: z.number().optional(),
      onetime: z.number().optional(),
    })
    .describe('Price per billing cycle; a cycle that is absent cannot be bought'),
);

export const planSchema = named(
  'Plan',
  z.object({
    id: idSchema,
    name: z.string(),
    itemType: z.enum(PLAN_ITEM_TYPES),
    prices: pricesSchema,
    currency: z.string().describe('ISO 4217 code'),
    isActive: z.boolean(),
  }),
);
export type Plan = z.infer<typeof planSchema>;

export const subscriptionsContract = {
  list: endpoint({
    operation: 'platform.subscription.list',
    path: '/api/platform/v1/subscription/list',
    summary: 'List subscription plans of the platform',
    description: 'Base plans only (`itemType` = `plan`); add-ons are assigned with addon/manage.',
    params: z.object({ platformId: platformIdParam }),
    response: listEnvelope(planSchema),
    rateClass: 'api_read',
    access: { scope: 'platform' },
    example: { platformId: EXAMPLE_IDS.platformId },
  }),
};
