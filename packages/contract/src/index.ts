import { initContract } from '@ts-rest/core';
import { addonsContract } from './platform/addons.js';
import { platformContract } from './platform/platform.js';
import { subscriptionsContract } from './platform/subscriptions.js';
import { ticketsContract } from './platform/tickets.js';
import { webhooksContract } from './platform/webhooks.js';
import { automationsContract } from './workspace/automations.js';
import { channelsContract } from './workspace/channels.js';
import { contactsContract } from './workspace/contacts.js';
import { customFieldsContract } from './workspace/custom-fields.js';
import { labelsContract } from './workspace/labels.js';
import { messagesContract } from './workspace/messages.js';
import { templatesContract } from './workspace/templates.js';

const c = initContract();

/**
 * The whole API's shape. Each leaf is an endpoint: `{ post, get }`, two routes built from one definition.
 * The nesting mirrors the URL paths and is the shape of the SDK (`sb.workspace.contacts.list(...)`).
 * Spelled out with `typeof` each slice because the inferred type of the whole tree is longer than TypeScript will
 * write into a declaration file (TS7056); `contract` below must match it exactly.
 */
export type Contract = {
  workspace: {
    channels: typeof channelsContract;
    contacts: typeof contactsContract;
    labels: typeof labelsContract;
    customFields: typeof customFieldsContract;
    automations: typeof automationsContract;
    chat: {
      templates: typeof templatesContract;
      message: typeof messagesContract;
    };
  };
  platform: {
    id: typeof platformContract;
    subscription: typeof subscriptionsContract;
    addon: typeof addonsContract;
    tickets: typeof ticketsContract;
    webhooks: typeof webhooksContract;
  };
};

export const contract: Contract = c.router({
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
    webhooks: webhooksContract,
  },
});

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
