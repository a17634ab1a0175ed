import { initContract } from '@ts-rest/core';
import { addonsContract } from './platform/addons.js';
import { platformContract } from './platform/platform.js';
import { subscriptionsContract } from './platform/subscriptions.js';
import { ticketsContract } from './platform/tickets.js';
import { automationsContract } from './workspace/automations.js';
import { channelsContract } from './workspace/channels.js';
import { contactsContract } from './workspace/contacts.js';
import { customFieldsContract } from './workspace/custom-fields.js';
import { labelsContract } from './workspace/labels.js';
import { messagesContract } from './workspace/messages.js';
import { templatesContract } from './workspace/templates.js';

const c = initContract();

/**
 * The whole API. Each leaf is an endpoint: `{ post, get }`, two routes built from one definition.
 * The nesting mirrors the URL paths and is the shape of the SDK (`sb.workspace.contacts.list(...)`).
 */
export const contract = c.router({
  workspace: {
    channels: channelsContract,
    contacts: contactsContract,
    labels: labelsContract,
    customFields: customFieldsContract,
    automations: automationsContract,
    chat: {
      templates: templatesContract,
      message: messagesContract,
    },
  },
  platform: {
    id: platformContract,
    subscription: subscriptionsContract,
    addon: addonsContract,
    tickets: ticketsContract,
  },
});
export type Contract = typeof contract;

export const API_INFO = {
  title: 'Switchboard API',
  version: '1.0.0',
  description: 'Workspace and Platform API of a Switchboard deployment.',
} as const;
/** The terms the API is offered under: those of the deployment, stated in its Developer Portal. */
export const API_LICENSE = 'Proprietary: see the deployment’s Developer Portal';

export * from './common/index.js';
export * from './platform/index.js';
export * from './workspace/index.js';
