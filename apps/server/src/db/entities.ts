import { ApiKey } from '../modules/api-keys/api-key.entity.js';
import { Automation } from '../modules/automations/automation.entity.js';
import { ChannelUser } from '../modules/channels/channel-user.entity.js';
import { Channel } from '../modules/channels/channel.entity.js';
import { ContactCount } from '../modules/contacts/contact-count.entity.js';
import { ContactLabel } from '../modules/contacts/contact-label.entity.js';
import { Contact } from '../modules/contacts/contact.entity.js';
import { CustomField } from '../modules/custom-fields/custom-field.entity.js';
import { Label } from '../modules/labels/label.entity.js';
import { OutboundEmail } from '../modules/mail/outbound-email.entity.js';
import { Message } from '../modules/messages/message.entity.js';
import { Plan } from '../modules/plans/plan.entity.js';
import { Subscription } from '../modules/plans/subscription.entity.js';
import { Transaction } from '../modules/plans/transaction.entity.js';
import { UserAddon } from '../modules/plans/user-addon.entity.js';
import { Platform } from '../modules/platforms/platform.entity.js';
import { Template } from '../modules/templates/template.entity.js';
import { TicketMessage } from '../modules/tickets/ticket-message.entity.js';
import { Ticket } from '../modules/tickets/ticket.entity.js';
import { User } from '../modules/users/user.entity.js';
import { WebhookAttempt } from '../modules/webhooks/webhook-attempt.entity.js';
import { WebhookDelivery } from '../modules/webhooks/webhook-delivery.entity.js';
import { WebhookEndpoint } from '../modules/webhooks/webhook-endpoint.entity.js';
import { PortalSession } from '../portal/portal-session.entity.js';

/** Listed explicitly: no folder scanning at start-up, and bundlers cannot lose an entity. */
export const entities = [
  Platform,
  User,
  ApiKey,
  Channel,
  ChannelUser,
  Label,
  CustomField,
  Contact,
  ContactLabel,
  ContactCount,
  Template,
  Message,
  Automation,
  Plan,
  Subscription,
  Transaction,
  UserAddon,
  Ticket,
  TicketMessage,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  OutboundEmail,
  PortalSession,
];
