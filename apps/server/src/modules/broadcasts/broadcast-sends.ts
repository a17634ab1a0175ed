import type { EntityManager } from '@mikro-orm/postgresql';
import { AUTOMATION_PLACEHOLDER } from '@switchboard/contract';
import { fillPlaceholders } from '../automations/index.js';
import { queueBulkSends } from '../messages/index.js';
import type { Broadcast } from './broadcast.entity.js';

type CustomFieldValue = string | number | boolean | null;

/** Whether any variable holds a placeholder, so each recipient's values differ. */
const personal = (variables: readonly string[]) => variables.some((text) => text.search(AUTOMATION_PLACEHOLDER) >= 0);

/** The queued recipients, in send order (by phone). */
const QUEUED = `from broadcast_recipients r where r.broadcast_id = ? and r.status = 'queued'`;

/**
 * The queued recipients as the pipeline's bulk insert reads them, each with its variables filled. Values that hold no
 * placeholder are the same for everyone and stay in the database; otherwise each recipient's contact is read once
 * and its values filled by the automations' fillPlaceholders (one rule for both), then handed back as one JSON
 * document of the rows to insert.
 */
async function recipientsWithVariables(tx: EntityManager, broadcast: Broadcast) {
  const position = 'row_number() over (order by r.phone) as position';
  if (!personal(broadcast.variables))
    return {
      sql: `select r.contact_id, r.phone, ?::jsonb as variables, ${position} ${QUEUED}`,
      params: [JSON.stringify(broadcast.variables), broadcast.id],
    };
  const contacts = await tx.execute<
    { contactId: string; phone: string; name: string; customFields: Record<string, CustomFieldValue> }[]
  >(
    `select r.contact_id as "contactId", r.phone, c.name, c.custom_fields as "customFields"
       from broadcast_recipients r join contacts c on c.id = r.contact_id
      where r.broadcast_id = ? and r.status = 'queued'
      order by r.phone`,
    [broadcast.id],
  );
  const filled = contacts.map((contact, index) => ({
    contact_id: contact.contactId,
    phone: contact.phone,
    variables: broadcast.variables.map((text) => fillPlaceholders(text, contact)),
    position: index + 1,
  }));
  // The rows themselves, not joined back to the recipients: a set-returning function's row count is unknown to the
  // planner, which could otherwise rescan it once per recipient.
  return {
    sql: `select v.contact_id, v.phone, v.variables, v.position
            from jsonb_to_recordset(?::jsonb) as v(contact_id uuid, phone text, variables jsonb, position bigint)`,
    params: [JSON.stringify(filled)],
  };
}

/** Queues every queued recipient's message through the send pipeline, in the caller's (the start's) transaction. */
export async function queueBroadcastSends(tx: EntityManager, broadcast: Broadcast, startAt: Date): Promise<number> {
  return queueBulkSends(tx, {
    channelId: broadcast.channel.id,
    broadcastId: broadcast.id,
    templateName: broadcast.templateName,
    language: broadcast.language,
    ratePerSecond: broadcast.ratePerSecond,
    startAt,
    recipients: await recipientsWithVariables(tx, broadcast),
  });
}
