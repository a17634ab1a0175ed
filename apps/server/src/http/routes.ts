import { contract } from '@switchboard/contract';
import type { Express } from 'express';
import { channelsRouter } from '../modules/channels/channel.router.js';
import { addonRouter, subscriptionRouter } from '../modules/plans/plan.router.js';
import { platformRouter } from '../modules/platforms/platform.router.js';
import { ticketsRouter } from '../modules/tickets/ticket.router.js';
import { registerEndpoints, type RouteDeps } from './register.js';

/** Every contract slice and the module that implements it. */
export function registerApiRoutes(app: Express, deps: RouteDeps) {
  registerEndpoints(app, contract.workspace.channels, channelsRouter(deps), deps);
  registerEndpoints(app, contract.platform.id, platformRouter(deps), deps);
  registerEndpoints(app, contract.platform.subscription, subscriptionRouter(deps), deps);
  registerEndpoints(app, contract.platform.addon, addonRouter(deps), deps);
  registerEndpoints(app, contract.platform.tickets, ticketsRouter(deps), deps);
}
