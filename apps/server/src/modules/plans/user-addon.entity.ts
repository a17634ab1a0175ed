import { defineEntity, p } from '@mikro-orm/core';
import { BILLING_CYCLES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { User } from '../users/index.js';
import { Plan } from './plan.entity.js';
import { Transaction } from './transaction.entity.js';

const ADDON_STATUSES = ['active', 'cancelled'] as const;

const UserAddonSchema = defineEntity({
  name: 'UserAddon',
  tableName: 'user_addons',
  properties: {
    id: uuidPrimaryKey(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    plan: () => p.manyToOne(Plan),
    transaction: () => p.manyToOne(Transaction),
    billingCycle: p.enum(BILLING_CYCLES),
    quantity: p.integer(),
    status: p.enum(ADDON_STATUSES).default('active'),
    createdAt: createdAtColumn(),
  },
});
export class UserAddon extends UserAddonSchema.class {}
UserAddonSchema.setClass(UserAddon);
