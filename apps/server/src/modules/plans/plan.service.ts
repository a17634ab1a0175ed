import { BILLING_CYCLES, type AddonManageParams, type Plan } from '@switchboard/contract';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';
import type { PlanPrices } from './plan.entity.js';

/** Base plans of the caller's platform (add-ons are not listed), oldest first. */
export async function listPlans(ctx: RequestContext): Promise<Plan[]> {
  return ctx.em.execute<Plan[]>(
    `select id, name, item_type as "itemType", prices, currency, is_active as "isActive"
       from plans where platform_id = ? and item_type = 'plan'
      order by created_at, id`,
    [ctx.caller.platformId],
  );
}

interface AddonRow {
  id: string;
  name: string;
  prices: PlanPrices;
  isActive: boolean;
  /** price × quantity computed by PostgreSQL in `numeric`: exact, never through a binary float. */
  amount: string | null;
  fitsColumn: boolean | null;
}

/** transactions.amount is numeric(12,2). */
const MAX_AMOUNT = '9999999999.99';

/**
 * Gives a user an add-on: checks user, add-on, base subscription and price, then writes the completed
 * transaction and the active add-on record in one database transaction (both or neither).
 */
export async function assignAddon(ctx: RequestContext, params: AddonManageParams): Promise<{ addonId: string; transactionId: string }> {
  const addonId = params.addonId ?? params.planId;
  if (!addonId) throw ValidationError.field('addonId', 'is required (planId is accepted as an alias)');
  if (params.addonId && params.planId && params.addonId !== params.planId) {
    throw ValidationError.field('planId', 'is an alias of addonId and must match it when both are given');
  }
  const { platformId } = ctx.caller;
  const { userId, billingCycle, quantity } = params;

  return ctx.em.transactional(async (tx) => {
    const [user] = await tx.execute(`select id from users where id = ? and platform_id = ?`, [userId, platformId]);
    if (!user) throw new NotFoundError('user_not_found', `No user ${userId} in this platform.`);

    const [addon] = await tx.execute<AddonRow[]>(
      `select id, name, prices, is_active as "isActive",
              ((prices->>?)::numeric * ?)::text as amount, (prices->>?)::numeric * ? <= ${MAX_AMOUNT} as "fitsColumn"
         from plans where id = ? and platform_id = ? and item_type = 'addon'`,
      [billingCycle, quantity, billingCycle, quantity, addonId, platformId],
    );
    if (!addon) throw new NotFoundError('addon_not_found', `No add-on ${addonId} in this platform (a plan with itemType addon).`);
    if (!addon.isActive) throw ValidationError.field('addonId', `add-on "${addon.name}" is inactive and cannot be assigned`);

    const [subscription] = await tx.execute(
      `select s.id from subscriptions s join plans p on p.id = s.plan_id
        where s.user_id = ? and s.status = 'active' and p.item_type = 'plan' and p.platform_id = ? limit 1`,
      [userId, platformId],
    );
    if (!subscription) {
      throw new BadRequestError(
        'no_active_subscription',
        'The user has no active base subscription; an add-on can only be assigned on top of an active plan.',
      );
    }

    if (addon.amount === null) {
      const available = BILLING_CYCLES.filter((cycle) => addon.prices[cycle] !== undefined).join(', ') || 'none';
      throw ValidationError.field('billingCycle', `add-on "${addon.name}" has no ${billingCycle} price; available cycles: ${available}`);
    }
    if (!addon.fitsColumn) throw ValidationError.field('quantity', `makes the amount exceed ${MAX_AMOUNT}`);

    const [transaction] = await tx.execute<{ id: string }[]>(
      `insert into transactions (platform_id, user_id, plan_id, billing_cycle, quantity, amount, currency, status)
       select ?, ?, id, ?, ?, ?::numeric, currency, 'completed' from plans where id = ? returning id`,
      [platformId, userId, billingCycle, quantity, addon.amount, addon.id],
    );
    const [userAddon] = await tx.execute<{ id: string }[]>(
      `insert into user_addons (user_id, plan_id, transaction_id, billing_cycle, quantity, status)
       values (?, ?, ?, ?, ?, 'active') returning id`,
      [userId, addon.id, transaction!.id, billingCycle, quantity],
    );
    return { addonId: userAddon!.id, transactionId: transaction!.id };
  });
}
