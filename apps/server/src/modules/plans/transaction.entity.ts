import { defineEntity, p } from '@mikro-orm/core';
import { BILLING_CYCLES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Platform } from '../platforms/index.js';
import { User } from '../users/index.js';
import { Plan } from './plan.entity.js';

const TRANSACTION_STATUSES = ['pending', 'completed', 'failed', 'refunded'] as const;

const TransactionSchema = defineEntity({
  name: 'Transaction',
  tableName: 'transactions',
  properties: {
    id: uuidPrimaryKey(),
    platform: () => p.manyToOne(Platform).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    plan: () => p.manyToOne(Plan),
    billingCycle: p.enum(BILLING_CYCLES),
    quantity: p.integer(),
    /** Decimal as text end to end: money never passes through a binary float. */
    amount: p.decimal('string').precision(12).scale(2),
    currency: p.string().length(3),
    status: p.enum(TRANSACTION_STATUSES),
    createdAt: createdAtColumn(),
  },
});
export class Transaction extends TransactionSchema.class {}
TransactionSchema.setClass(Transaction);
