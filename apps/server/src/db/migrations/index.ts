import type { MigrationObject } from '@mikro-orm/core';
import { InitialSchema } from './Migration20261122042111_initial.js';
import { LookupIndexes } from './Migration20261122042500_lookup_indexes.js';
import { PortalSessions } from './Migration20261122043742_portal_sessions.js';
import { WebhookAttempts } from './Migration20261122043910_webhook_attempts.js';
import { ContactCounts } from './Migration20261122044116_contact_counts.js';
import { IdempotencyKeys } from './Migration20261123133223_idempotency_keys.js';
import { CallerChangeNotifications } from './Migration20261123160000_caller_change_notifications.js';
import { WhatsAppConnections } from './Migration20261123161655_whatsapp_connections.js';
import { WebhookManagement } from './Migration20261123162342_webhook_management.js';
import { WhatsAppInbound } from './Migration20261123163418_whatsapp_inbound.js';
import { ContactSearchKeys } from './Migration20261124100000_contact_search_keys.js';

/** Every committed migration, in order. Listed explicitly so compiled and bundled builds find them all. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122042111_initial', class: InitialSchema },
  { name: 'Migration20261122042500_lookup_indexes', class: LookupIndexes },
  { name: 'Migration20261122043742_portal_sessions', class: PortalSessions },
  { name: 'Migration20261122043910_webhook_attempts', class: WebhookAttempts },
  { name: 'Migration20261122044116_contact_counts', class: ContactCounts },
  { name: 'Migration20261123133223_idempotency_keys', class: IdempotencyKeys },
  { name: 'Migration20261123160000_caller_change_notifications', class: CallerChangeNotifications },
  { name: 'Migration20261123161655_whatsapp_connections', class: WhatsAppConnections },
  { name: 'Migration20261123162342_webhook_management', class: WebhookManagement },
  { name: 'Migration20261123163418_whatsapp_inbound', class: WhatsAppInbound },
  { name: 'Migration20261124100000_contact_search_keys', class: ContactSearchKeys },
];
