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
import { platformIdParam } from './platform.js';
import { BILLING_CYCLES, planSchema } from './subscriptions.js';

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
