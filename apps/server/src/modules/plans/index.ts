import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Plan } from './plan.entity.js';
import { addonRouter, subscriptionRouter } from './plan.router.js';
import { planHoldersService } from './plan-holders.provider.js';
import { addonExample, subscribedUserExample } from './plan-examples.js';
import { plansSeed, subscriptionsSeed } from './plan.seed.js';
import { Subscription } from './subscription.entity.js';
import { Transaction } from './transaction.entity.js';
import { UserAddon } from './user-addon.entity.js';

export const plansModule = defineModule({
  name: 'plans',
  entities: [Plan, Subscription, Transaction, UserAddon],
  routes: [routes(contract.platform.subscription, subscriptionRouter), routes(contract.platform.addon, addonRouter)],
  seed: [plansSeed, subscriptionsSeed],
  services: [planHoldersService],
  demo: {
    plans: [
      { ref: 'starter', platform: 'demo', name: 'Starter', itemType: 'plan', prices: { monthly: 19, annual: 190 } },
      {
        ref: 'pro',
        platform: 'demo',
        name: 'Pro',
        itemType: 'plan',
        prices: { monthly: 49, quarterly: 139, annual: 490 },
      },
      {
        ref: 'seats',
        platform: 'demo',
        name: 'Extra seats',
        itemType: 'addon',
        prices: { monthly: 5, annual: 50, onetime: 20 },
      },
    ],
    subscriptions: [{ user: 'owner', plan: 'pro', status: 'active', billingCycle: 'monthly' }],
  },
  examples: { userId: subscribedUserExample, addonId: addonExample },
});
