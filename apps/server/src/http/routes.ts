import { contract } from '@switchboard/contract';
import type { Express } from 'express';
import { automationsRouter } from '../modules/automations/automation.router.js';
import { channelsRouter } from '../modules/channels/channel.router.js';
import { contactsRouter } from '../modules/contacts/contact.router.js';
import { customFieldsRouter } from '../modules/custom-fields/custom-field.router.js';
import { labelsRouter } from '../modules/labels/label.router.js';
import { messagesRouter } from '../modules/messages/message.router.js';
import { addonRouter, subscriptionRouter } from '../modules/plans/plan.router.js';
import { platformRouter } from '../modules/platforms/platform.router.js';
import { ticketsRouter } from '../modules/tickets/ticket.router.js';
import { templatesRouter } from '../modules/templates/template.router.js';
import { registerEndpoints, type RouteDeps } from './register.js';

/** Every contract slice and the module that implements it. */
export function registerApiRoutes(app: Express, deps: RouteDeps) {
  registerEndpoints(app, contract.workspace.channels, channelsRouter(deps), deps);
  registerEndpoints(app, contract.workspace.contacts, contactsRouter(deps), deps);
  registerEndpoints(app, contract.workspace.labels, labelsRouter(deps), deps);
  registerEndpoints(app, contract.workspace.customFields, customFieldsRouter(deps), deps);
  registerEndpoints(app, contract.workspace.automations, automationsRouter(deps), deps);
  registerEndpoints(app, contract.workspace.chat.templates, templatesRouter(deps), deps);
  registerEndpoints(app, contract.workspace.chat.message, messagesRouter(deps), deps);
  registerEndpoints(app, contract.platform.id, platformRouter(deps), deps);
  registerEndpoints(app, contract.platform.subscription, subscriptionRouter(deps), deps);
  registerEndpoints(app, contract.platform.addon, addonRouter(deps), deps);
  registerEndpoints(app, contract.platform.tickets, ticketsRouter(deps), deps);
}
