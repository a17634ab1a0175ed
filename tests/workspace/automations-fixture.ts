import { randomBytes } from 'node:crypto';
import type { AutomationAction, AutomationCondition } from '@switchboard/contract';
import { findOrCreateContactByPhone } from '../../apps/server/src/modules/contacts/index.js';
import { recordInboundMessage } from '../../apps/server/src/modules/messages/index.js';
import type { TestServer } from '../helpers/server.js';

/**
 * A customer's text arriving on a sandbox channel, recorded the way a provider's inbound path records it (contact
 * found or created by phone, the message, its events and triggers, in one transaction). Returns the msgid.
 */
export async function receiveText(
  server: TestServer,
  channelId: string,
  phone: string,
  text: string,
  name = 'Customer',
): Promise<{ msgid: string; contactId: string }> {
  const msgid = `wamid.IN${randomBytes(9).toString('base64url')}`;
  const contact = await server.database.orm.em.fork().transactional(async (tx) => {
    const found = await findOrCreateContactByPhone(tx, server.jobs, channelId, phone, name);
    await recordInboundMessage({ em: tx }, server.jobs, 'sandbox', {
      msgid,
      channelId,
      contact: found,
      type: 'text',
      text,
      media: null,
      timestamp: new Date().toISOString(),
    });
    return found;
  });
  return { msgid, contactId: contact.id };
}

/** A create's parameters: a name unique in the run, active, the trigger given, no conditions unless given. */
export const automation = (
  trigger: { event: 'message.received' | 'contact.created' | 'contact.labeled'; labelId?: string },
  actions: AutomationAction[],
  conditions: AutomationCondition[] = [],
) => ({
  action: 'create' as const,
  name: `Rule ${randomBytes(4).toString('hex')}`,
  trigger,
  conditions,
  actions,
});
