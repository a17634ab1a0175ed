import { addonsContract, subscriptionsContract } from './platform/plans.js';
import { platformContract } from './platform/platforms.js';
import { ticketsContract } from './platform/tickets.js';
import { usersContract } from './platform/users.js';
import { webhooksContract } from './platform/webhooks.js';
import { automationsContract } from './workspace/automations.js';
import { broadcastsContract } from './workspace/broadcasts.js';
import { channelsContract } from './workspace/channels.js';
import { contactsContract } from './workspace/contacts.js';
import { conversationsContract, messagesHistoryContract } from './workspace/conversations.js';
import { customFieldsContract } from './workspace/custom-fields.js';
import { labelsContract } from './workspace/labels.js';
import { mediaContract } from './workspace/media.js';
import { meContract } from './workspace/me.js';
import { messagesContract } from './workspace/messages.js';
import { notesContract } from './workspace/notes.js';
import { sandboxContract } from './workspace/sandbox.js';
import { templatesContract } from './workspace/templates.js';

/**
 * The whole API. Each leaf is an endpoint: `{ post, get }`, two routes built from one definition (each already a
 * ts-rest router, so the tree needs no `c.router` of its own). The nesting mirrors the URL paths and is the shape
 * of the SDK (`sb.workspace.contacts.list(...)`).
 */
export const contract = {
  workspace: {
    me: meContract.me,
    channels: channelsContract,
    contacts: contactsContract,
    labels: labelsContract,
    customFields: customFieldsContract,
    automations: automationsContract,
    broadcasts: broadcastsContract,
    // Before chat: the Postman collection, run in order, plays the customer message the chat requests answer.
    sandbox: sandboxContract,
    chat: {
      templates: templatesContract,
      message: messagesContract,
      messages: messagesHistoryContract,
      conversations: conversationsContract,
      notes: notesContract,
      media: mediaContract,
    },
  },
  platform: {
    id: platformContract,
    subscription: subscriptionsContract,
    addon: addonsContract,
    tickets: ticketsContract,
    users: usersContract,
    webhooks: webhooksContract,
  },
};

/** The whole API's type, derived from the tree above. */
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
