import type { EntityManager } from '@mikro-orm/postgresql';
import { AUTOMATION_PLACEHOLDER } from '@switchboard/contract';
import { fillPlaceholders } from '../templates/index.js';
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

/** A chunk of the broadcast's recipients to send: the next `limit` in send order (by phone) after `after`. */
export interface RecipientChunk {
  /** The phone before the chunk (the audience's cursor); null for the first chunk. */
  after: string | null;
  limit: number;
}

/** The chunk's recipients, in send order (by phone), as a FROM clause and its parameters. */
const chunkOf = (broadcast: Broadcast, chunk: RecipientChunk) => ({
  sql: `from (select r.contact_id, r.phone from broadcast_recipients r
               where r.broadcast_id = ? and r.status = 'queued' and r.phone > ?
               order by r.phone limit ?) r`,
  params: [broadcast.id, chunk.after ?? '', chunk.limit],
});

/**
 * A chunk of queued recipients as the pipeline's bulk insert reads them, each with its variables filled. Values that
 * hold no placeholder are the same for everyone and stay in the database; otherwise each recipient's contact is read
 * once and its values filled by the templates' fillPlaceholders (the rule automations apply too), then handed back
 * as one JSON document of the rows to insert.
 */
async function recipientsWithVariables(tx: EntityManager, broadcast: Broadcast, chunk: RecipientChunk) {
  const from = chunkOf(broadcast, chunk);
  if (!personal(broadcast))
    return {
      sql: `select r.contact_id, r.phone, ?::jsonb as variables, ?::jsonb as template_parts,
                   row_number() over (order by r.phone) as position ${from.sql}`,
      params: [JSON.stringify(broadcast.variables), JSON.stringify(broadcast.templateParts ?? null), ...from.params],
    };
  const contacts = await tx.execute<
    { contactId: string; phone: string; name: string; customFields: Record<string, CustomFieldValue> }[]
  >(
    // A left join: a contact deleted since the audience was resolved still has its recipient sent to, as the phone.
    `select r.contact_id as "contactId", r.phone, coalesce(c.name, r.phone) as name,
            coalesce(c.custom_fields, '{}'::jsonb) as "customFields"
       ${from.sql} left join contacts c on c.id = r.contact_id
      order by r.phone`,
    from.params,
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

/**
 * Queues the messages of a chunk of the broadcast's recipients through the send pipeline, in the caller's
 * transaction, the first due at `startAt` and the others spaced at the broadcast's rate. Returns how many it queued.
 */
export async function queueBroadcastSends(
  tx: EntityManager,
  broadcast: Broadcast,
  chunk: RecipientChunk,
  startAt: Date,
): Promise<number> {
  return queueBulkSends(tx, {
    channelId: broadcast.channel.id,
    broadcastId: broadcast.id,
    templateName: broadcast.templateName,
    language: broadcast.language,
    ratePerSecond: broadcast.ratePerSecond,
    startAt,
    recipients: await recipientsWithVariables(tx, broadcast, chunk),
  });
}
