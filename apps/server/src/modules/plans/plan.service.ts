import { BILLING_CYCLES, type AddonManageValues, type Plan } from '@switchboard/contract';
import { Decimal } from 'decimal.js';
import type { CallerContext } from '../../kit/context.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../kit/errors.js';
import { User } from '../users/index.js';
import { Plan as PlanEntity } from './plan.entity.js';
import { Subscription } from './subscription.entity.js';
import { Transaction } from './transaction.entity.js';
import { UserAddon } from './user-addon.entity.js';

/** Plans of the caller's platform of one item type (base plans or add-ons), inactive ones included, oldest first. */
export async function listPlans(ctx: CallerContext, itemType: Plan['itemType']): Promise<Plan[]> {
  const plans = await ctx.em.find(
    PlanEntity,
    { platform: ctx.caller.platformId, itemType },
    { fields: ['name', 'itemType', 'prices', 'currency', 'isActive'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return plans.map((p) => ({
    id: p.id,
    name: p.name,
    itemType: p.itemType,
    prices: p.prices,
    currency: p.currency,
    isActive: p.isActive,
  }));
}

/** transactions.amount is numeric(12,2). */
const MAX_AMOUNT = '9999999999.99';

/**
 * Gives a user an add-on: checks user, add-on, base subscription and price, then writes the completed
 * transaction and the active add-on record in one database transaction (both or neither).
 */
export async function assignAddon(
  ctx: CallerContext,
  params: AddonManageValues,
): Promise<{ addonId: string; transactionId: string }> {
  const { platformId } = ctx.caller;
  const { userId, addonId, billingCycle, quantity } = params;

  return ctx.em.transactional(async (tx) => {
    if (!(await tx.count(User, { id: userId, platform: platformId })))
      throw new NotFoundError('user_not_found', `No user ${userId} in this platform.`);

    const addon = await tx.findOne(
      PlanEntity,
      { id: addonId, platform: platformId, itemType: 'addon' },
      { fields: ['name', 'prices', 'currency', 'isActive'] },
    );
    if (!addon)
      throw new NotFoundError('addon_not_found', `No add-on ${addonId} in this platform (a plan with itemType addon).`);
    if (!addon.isActive)
      throw ValidationError.field('addonId', `add-on "${addon.name}" is inactive and cannot be assigned`);

    const subscribed = await tx.count(Subscription, {
      user: userId,
      status: 'active',
      plan: { itemType: 'plan', platform: platformId },
    });
    if (!subscribed) {
      throw new BadRequestError(
        'no_active_subscription',
        'The user has no active base subscription; an add-on can only be assigned on top of an active plan.',
      );
    }

    const price = addon.prices[billingCycle];
    if (price === undefined) {
      const available = BILLING_CYCLES.filter((cycle) => addon.prices[cycle] !== undefined).join(', ') || 'none';
      throw ValidationError.field(
        'billingCycle',
        `add-on "${addon.name}" has no ${billingCycle} price; available cycles: ${available}`,
      );
    }
    // decimal.js: the price as written (19.99, not the binary float nearest to it) times the quantity, exactly.
    const amount = new Decimal(price).times(quantity);
    if (amount.gt(MAX_AMOUNT)) throw ValidationError.field('quantity', `makes the amount exceed ${MAX_AMOUNT}`);

    const transaction = tx.create(Transaction, {
      platform: platformId,
      user: userId,
      plan: addon.id,
      billingCycle,
      quantity,
      amount: amount.toFixed(),
      currency: addon.currency,
      status: 'completed',
    });
    const userAddon = tx.create(UserAddon, {
      user: userId,
      plan: addon.id,
      transaction,
      billingCycle,
      quantity,
      status: 'active',
    });
    return { addonId: userAddon.id, transactionId: transaction.id };
  });
}
