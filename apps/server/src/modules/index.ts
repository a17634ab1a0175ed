import { apiKeysModule } from './api-keys/index.js';
import { automationsModule } from './automations/index.js';
import { broadcastsModule } from './broadcasts/index.js';
import { channelsModule } from './channels/index.js';
import { contactsModule } from './contacts/index.js';
import { conversationsModule } from './conversations/index.js';
import { customFieldsModule } from './custom-fields/index.js';
import { emitterModule } from './emitter/index.js';
import { eventStreamModule } from './event-stream/index.js';
import { idempotencyModule } from './idempotency/index.js';
import { labelsModule } from './labels/index.js';
import { mailModule } from './mail/index.js';
import { mediaModule } from './media/index.js';
import { meModule } from './me/index.js';
import { messagesModule } from './messages/index.js';
import { notesModule } from './notes/index.js';
import { plansModule } from './plans/index.js';
import { platformsModule } from './platforms/index.js';
import { portalSessionsModule } from './portal-sessions/index.js';
import { sandboxModule } from './sandbox/index.js';
import { sendingModule } from './sending/index.js';
import { templatesModule } from './templates/index.js';
import { ticketsModule } from './tickets/index.js';
import { usersModule } from './users/index.js';
import { webhookTransportModule } from './webhook-transport/index.js';
import { webhooksModule } from './webhooks/index.js';
import { whatsAppGraphModule } from './whatsapp-graph/index.js';
import { whatsAppInboundModule } from './whatsapp-inbound/index.js';
import { whatsAppModule } from './whatsapp/index.js';

export { apiKeyLookup, CALLER_CHANGES_CHANNEL } from './api-keys/index.js';
export { idempotencyStore, idempotencySweeper } from './idempotency/index.js';

/**
 * The one list of modules. The app mounts their routes, the ORM knows their entities, the worker runs their jobs,
 * the seed file has their sections and the demo data their parts. In dependency order: each module comes after the
 * modules it imports, so its seed entries can refer to theirs (users name their platform, contacts their channel
 * and labels) and its services start after the ones they use (sandbox and whatsapp register with messages' providers).
 */
export const modules = [
  platformsModule,
  usersModule,
  apiKeysModule,
  idempotencyModule,
  channelsModule,
  meModule,
  labelsModule,
  customFieldsModule,
  eventStreamModule,
  mailModule,
  webhookTransportModule,
  webhooksModule,
  emitterModule,
  contactsModule,
  messagesModule,
  sendingModule,
  conversationsModule,
  mediaModule,
  notesModule,
  sandboxModule,
  templatesModule,
  automationsModule,
  broadcastsModule,
  whatsAppGraphModule,
  whatsAppModule,
  whatsAppInboundModule,
  plansModule,
  ticketsModule,
  portalSessionsModule,
] as const;
