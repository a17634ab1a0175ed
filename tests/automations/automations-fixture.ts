import { randomBytes } from 'node:crypto';
import type { AutomationAction, AutomationCondition } from '@switchboard/contract';
import { receiveSandboxMessage } from '../../apps/server/src/modules/sandbox/index.js';
import { sql } from '../helpers/database.js';
import type { TestServer } from '../helpers/server.js';

/**
 * A customer's text arriving on a sandbox channel, recorded as `pnpm cli sandbox receive` records it (contact found or
 * created by phone, the message, its events and triggers, in one transaction).
 */
export async function receiveText(
  server: TestServer,
  channelId: string,
  phone: string,
  text: string,
): Promise<{ msgid: string; contactId: string }> {
  const { msgid } = await receiveSandboxMessage({ em: server.database.orm.em.fork() }, server.jobs, {
    channelId,
    from: phone,
    text,
  });
  const [row] = await sql<{ id: string }>(
    server.databaseUrl,
    'select id from contacts where channel_id = $1 and phone = $2',
    [channelId, phone],
  );
  return { msgid, contactId: row!.id };
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
