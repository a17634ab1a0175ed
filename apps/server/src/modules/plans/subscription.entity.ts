import { defineEntity, p } from '@mikro-orm/core';
import { BILLING_CYCLES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { User } from '../users/index.js';
import { Plan } from './plan.entity.js';

export const SUBSCRIPTION_STATUSES = ['active', 'cancelled', 'expired'] as const;

const SubscriptionSchema = defineEntity({
  name: 'Subscription',
  tableName: 'subscriptions',
  properties: {
    id: uuidPrimaryKey(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    plan: () => p.manyToOne(Plan),
    status: p.enum(SUBSCRIPTION_STATUSES).default('active'),
    billingCycle: p.enum(BILLING_CYCLES).default('monthly'),
    createdAt: createdAtColumn(),
  },
  indexes: [{ properties: ['user', 'status'] }],
});
export class Subscription extends SubscriptionSchema.class {}
SubscriptionSchema.setClass(Subscription);
