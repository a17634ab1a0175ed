import type { EntityManager } from '@mikro-orm/postgresql';
import { AUTOMATION_PLACEHOLDER } from '@switchboard/contract';
import { fillPlaceholders } from '../automations/index.js';
import type { OutboundTemplateParts } from '../messages/index.js';
import { queueBulkSends } from '../sending/index.js';
import type { Broadcast } from './broadcast.entity.js';

type CustomFieldValue = string | number | boolean | null;

/** The texts of a broadcast that may hold placeholders: its variables, a text header's value, its buttons' values. */
const textsOf = (broadcast: Broadcast) => [
  ...broadcast.variables,
  ...(broadcast.templateParts?.header?.format === 'text' ? [broadcast.templateParts.header.text] : []),
  ...(broadcast.templateParts?.buttons ?? []).map((button) => button.value),
];

/** Whether any text holds a placeholder, so each recipient's values differ. */
const personal = (broadcast: Broadcast) => textsOf(broadcast).some((text) => text.search(AUTOMATION_PLACEHOLDER) >= 0);

/** The header and button values with one recipient's placeholders filled. */
function filledParts(parts: OutboundTemplateParts | null | undefined, fill: (text: string) => string) {
  if (!parts) return null;
  const { header, buttons } = parts;
  return {
    ...(header ? { header: header.format === 'text' ? { ...header, text: fill(header.text) } : header } : {}),
    ...(buttons ? { buttons: buttons.map((button) => ({ ...button, value: fill(button.value) })) } : {}),
  };
}

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
  if (!personal(broadcast))
    return {
      sql: `select r.contact_id, r.phone, ?::jsonb as variables, ?::jsonb as template_parts, ${position} ${QUEUED}`,
      params: [JSON.stringify(broadcast.variables), JSON.stringify(broadcast.templateParts ?? null), broadcast.id],
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
    template_parts: filledParts(broadcast.templateParts, (text) => fillPlaceholders(text, contact)),
    position: index + 1,
  }));
  // The rows themselves, not joined back to the recipients: a set-returning function's row count is unknown to the
  // planner, which could otherwise rescan it once per recipient.
  return {
    sql: `select v.contact_id, v.phone, v.variables, v.template_parts, v.position
            from jsonb_to_recordset(?::jsonb)
              as v(contact_id uuid, phone text, variables jsonb, template_parts jsonb, position bigint)`,
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
