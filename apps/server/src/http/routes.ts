import { contract } from '@switchboard/contract';
import type { Express } from 'express';
import { channelsRouter } from '../modules/channels/channel.router.js';
import { registerEndpoints, type RouteDeps } from './register.js';

/** Every contract slice and the module that implements it. */
export function registerApiRoutes(app: Express, deps: RouteDeps) {
  registerEndpoints(app, contract.workspace.channels, channelsRouter(deps), deps);
}
