import { BILLING_CYCLES, PLAN_ITEM_TYPES } from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Platform } from '../platforms/index.js';
import { User } from '../users/index.js';
import { Plan } from './plan.entity.js';
import { Subscription, SUBSCRIPTION_STATUSES } from './subscription.entity.js';

const prices = z
  .object({
    monthly: z.number().nonnegative().optional(),
    quarterly: z.number().nonnegative().optional(),
    annual: z.number().nonnegative().optional(),
    onetime: z.number().nonnegative().optional(),
  })
  .strict();

export const plansSeed = seedSection({
  key: 'plans',
  item: z
    .object({
      ref: seedRef.optional(),
      platform: seedRef,
      name: z.string().min(1).max(200),
      itemType: z.enum(PLAN_ITEM_TYPES),
      prices,
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like USD')
        .default('USD'),
      isActive: z.boolean().default(true),
    })
    .strict(),
  async load(ctx, item, path) {
    const platform = await ctx.ref('platforms', Platform, item.platform, `${path}.platform`);
    if (Object.keys(item.prices).length === 0) throw new SeedError(`${path}.prices`, 'must have at least one price');
    const plan = ctx.em.create(Plan, {
      platform,
      name: item.name,
      itemType: item.itemType,
      prices: item.prices,
      currency: item.currency,
      isActive: item.isActive,
    });
    return seededId(plan);
  },
});

export const subscriptionsSeed = seedSection({
  key: 'subscriptions',
  item: z
    .object({
      ref: seedRef.optional(),
      user: seedRef,
      plan: seedRef,
      status: z.enum(SUBSCRIPTION_STATUSES).default('active'),
      billingCycle: z.enum(BILLING_CYCLES).default('monthly'),
    })
    .strict(),
  async load(ctx, item, path) {
    const user = await ctx.ref('users', User, item.user, `${path}.user`);
    const plan = await ctx.ref('plans', Plan, item.plan, `${path}.plan`);
    if (plan.platform.id !== user.platform.id) throw new SeedError(`${path}.plan`, 'plan belongs to another platform');
    if (plan.itemType !== 'plan') throw new SeedError(`${path}.plan`, 'must be a base plan (itemType "plan")');
    const subscription = ctx.em.create(Subscription, {
      user,
      plan,
      status: item.status,
      billingCycle: item.billingCycle,
    });
    return seededId(subscription);
  },
});
