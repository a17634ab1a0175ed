/**
 * The plans a platform sells and its users hold: the catalogue (platform/subscription/list) and a user's add-ons
 * (platform/addon/list, platform/addon/manage). One resource, `plans`, as the server's module.
 */
import { z } from 'zod';
import {
  endpoint,
  EXAMPLE_IDS,
  idSchema,
  listEnvelope,
  named,
  okEnvelope,
  withFieldRules,
  withOpenApi,
  type FieldProblem,
} from '../common/index.js';
import { platformIdParam } from './platforms.js';

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

const addonManageFields = z.object({
  platformId: platformIdParam,
  userId: z
    .string({ required_error: 'is required' })
    .uuid('must be a user id (UUID)')
    .describe('User of the platform receiving the add-on'),
  addonId: z
    .string()
    .uuid('must be a plan id (UUID)')
    .optional()
    .describe('Add-on plan id (itemType `addon`); required (or its deprecated alias planId)'),
  planId: withOpenApi(
    z
      .string()
      .uuid('must be a plan id (UUID)')
      .optional()
      .describe('Deprecated alias of addonId; must match it when both are given'),
    {
      deprecated: true,
    },
  ),
  billingCycle: z.enum(BILLING_CYCLES).default('monthly').describe('Must be a cycle the add-on has a price for'),
  quantity: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(1),
});

type AddonManageInput = z.input<typeof addonManageFields>;
/** What callers send: `addonId`, or the deprecated alias `planId` (both only if equal). */
export type AddonManageParams = (AddonManageInput & { addonId: string }) | (AddonManageInput & { planId: string });

type AddonManageFields = z.output<typeof addonManageFields>;

function addonAliasProblems({ addonId, planId }: AddonManageFields): FieldProblem[] {
  if (addonId === undefined && planId === undefined)
    return [{ field: 'addonId', problem: 'is required (planId is accepted as an alias)' }];
  if (addonId !== undefined && planId !== undefined && addonId !== planId) {
    return [{ field: 'planId', problem: 'is an alias of addonId and must match it when both are given' }];
  }
  return [];
}

/** Handlers see `addonId` only, whichever name the caller used. */
export const addonManageParams = withFieldRules<AddonManageParams>()(addonManageFields, {
  sets: [['addonId'], ['planId']],
  check: addonAliasProblems,
  resolve: ({ planId, ...values }: AddonManageFields) => ({ ...values, addonId: (values.addonId ?? planId)! }),
});
export type AddonManageValues = z.output<typeof addonManageParams>;

export const addonAssignmentSchema = named(
  'AddonAssignment',
  z.object({ addonId: idSchema.describe('Id of the created add-on record'), transactionId: idSchema }),
);

export const addonsContract = {
  list: endpoint({
    operation: 'platform.addon.list',
    path: '/api/platform/v1/addon/list',
    summary: 'List add-ons of the platform',
    description:
      'Add-on plans only (`itemType` = `addon`), inactive ones included, oldest first; an `id` is addon/manage’s ' +
      '`addonId`.',
    params: z.object({ platformId: platformIdParam }),
    response: listEnvelope(planSchema),
    rateClass: 'api_read',
    access: { scope: 'platform' },
    example: { platformId: EXAMPLE_IDS.platformId },
  }),
  manage: endpoint({
    operation: 'platform.addon.manage',
    path: '/api/platform/v1/addon/manage',
    summary: 'Assign an add-on to a user',
    description:
      'The user must belong to the platform (else 404 `user_not_found`) and have an active base subscription (else ' +
      '400 `no_active_subscription`); the plan must be an active add-on of the platform (else 404 `addon_not_found`) ' +
      'with a price for `billingCycle` (else 400 listing the available cycles). Creates a completed transaction ' +
      '(price × quantity, exact decimal) and an active add-on record in one database transaction. Message: `Addon ' +
      'assigned successfully`.',
    params: addonManageParams,
    response: okEnvelope(addonAssignmentSchema),
    rateClass: 'api_admin_write',
    access: { scope: 'platform' },
    // Each call records another transaction and add-on.
    effects: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    errors: ['user_not_found', 'addon_not_found', 'no_active_subscription'],
    example: {
      platformId: EXAMPLE_IDS.platformId,
      userId: EXAMPLE_IDS.userId,
      addonId: EXAMPLE_IDS.addonId,
      billingCycle: 'monthly',
      quantity: 1,
    },
  }),
};
