import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { Plan } from './plan.entity.js';
import { addonRouter, subscriptionRouter } from './plan.router.js';
import { planHoldersService } from './plan-holders.js';
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
});
