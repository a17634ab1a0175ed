import { defineEntity, p } from '@mikro-orm/core';
import { PLAN_ITEM_TYPES, type BillingCycle } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Platform } from '../platforms/index.js';

type PlanPrices = Partial<Record<BillingCycle, number>>;

const PlanSchema = defineEntity({
  name: 'Plan',
  tableName: 'plans',
  properties: {
    id: uuidPrimaryKey(),
    platform: () => p.manyToOne(Platform).deleteRule('cascade'),
    name: p.string().length(200),
    itemType: p.enum(PLAN_ITEM_TYPES),
    prices: p.json<PlanPrices>(),
    currency: p.string().length(3).default('USD'),
    isActive: p.boolean().default(true),
    createdAt: createdAtColumn(),
  },
  indexes: [{ properties: ['platform', 'itemType'] }],
});
export class Plan extends PlanSchema.class {}
PlanSchema.setClass(Plan);
