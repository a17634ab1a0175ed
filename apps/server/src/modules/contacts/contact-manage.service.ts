import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Contact, ContactLookupValues, ContactManageValues } from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import type { JobQueue } from '../../kit/jobs.js';
import { queueTrigger } from '../../kit/triggers.js';
import { NotFoundError, ValidationError, type FieldIssue } from '../../kit/errors.js';
import { assertInChannel, type ScopedChannel } from '../channels/index.js';
import { checkCustomFieldValues, listCustomFields, mergeCustomFieldValues } from '../custom-fields/index.js';
import { labelIdsByName } from '../labels/index.js';
import { ContactLabel } from './contact-label.entity.js';
import { Contact as ContactEntity } from './contact.entity.js';
import { readContact } from './contact.service.js';
import { queueContactStatusChanged } from './contact-status.js';

type LabelParam = 'labels' | 'addLabels' | 'removeLabels';
type LabelIds = Partial<Record<LabelParam, string[]>>;

const contactNotFound = (ref: string) => () =>
  new NotFoundError('contact_not_found', `No contact ${ref} in this channel.`);

/**
 * `labels` replaces the set, so it does not go with the parameters that change it; nor may a name be added and removed.
 */
function labelParamIssues({ labels, addLabels, removeLabels }: ContactManageValues): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const [param, names] of [
    ['addLabels', addLabels],
    ['removeLabels', removeLabels],
  ] as const) {
    if (labels !== undefined && names !== undefined)
      issues.push({ field: param, problem: 'cannot be combined with labels, which replaces the whole set' });
  }
  const both = (addLabels ?? []).filter((name) => removeLabels?.includes(name));
  if (both.length) issues.push({ field: 'removeLabels', problem: `"${both[0]}" is also in addLabels` });
  return issues;
}

/**
 * The label ids each label parameter names. An unknown name is an issue naming its position, unless
 * `createMissingLabels` creates it (for `labels` and `addLabels`; removing a label that does not exist stays an error).
 */
async function resolveLabelParams(
  tx: EntityManager,
  channelId: string,
  params: ContactManageValues,
  issues: FieldIssue[],
): Promise<LabelIds> {
  const creatable = [...(params.labels ?? []), ...(params.addLabels ?? [])];
  const created = await labelIdsByName({ em: tx }, channelId, creatable, params.createMissingLabels);
  const existing = await labelIdsByName({ em: tx }, channelId, params.removeLabels ?? [], false);
  const ids: LabelIds = {};
  for (const param of ['labels', 'addLabels', 'removeLabels'] as const) {
    const byName = param === 'removeLabels' ? existing : created;
    ids[param] = params[param]?.flatMap((name, index) => {
      const id = byName.get(name);
      if (!id)
        issues.push({
          field: `${param}.${index}`,
          problem:
            `no label named "${name}" in this channel (create it with labels/manage, or pass ` +
            `createMissingLabels: true)`,
        });
      return id ? [id] : [];
    });
  }
  return ids;
}

/** The contact with this phone, locked until the transaction ends so that concurrent upserts of it queue up. */
const lockContact = (tx: EntityManager, channelId: string, phone: string) =>
  tx.findOne(ContactEntity, { channel: channelId, phone }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** Inserts the contact unless a concurrent request inserted the same phone first (then null: update that one). */
async function insertContact(
  tx: EntityManager,
  channelId: string,
  params: ContactManageValues,
): Promise<string | null> {
  const id = randomUUID();
  const { affectedRows } = await tx
    .createQueryBuilder(ContactEntity)
    .insert({
      id,
      channel: channelId,
      phone: params.phone,
      name: params.name!,
      email: params.email ?? null,
      status: params.status ?? 'active',
      customFields: mergeCustomFieldValues({}, params.customFields ?? {}),
    })
    .onConflict(['channel', 'phone'])
    .ignore()
    .execute('run');
  return affectedRows === 1 ? id : null;
}

async function updateContact(tx: EntityManager, contact: ContactEntity, params: ContactManageValues): Promise<void> {
  const { name, email, status, customFields } = params;
  const given = Object.fromEntries(Object.entries({ name, email, status }).filter(([, value]) => value !== undefined));
  tx.assign(contact, given);
  if (customFields) contact.customFields = mergeCustomFieldValues(contact.customFields, customFields);
  // Every upsert is an update, a label change included, even when the values stay the same.
  contact.updatedAt = new Date();
  await tx.flush();
}

/**
 * The contact's row: `existing`, or a new one. When a concurrent request inserted the same phone first, the insert
 * does nothing and that row is locked and updated instead. (Tried again only if that row is deleted in between.)
 */
async function upsertRow(
  tx: EntityManager,
  channelId: string,
  params: ContactManageValues,
  existing: ContactEntity | null,
) {
  let contact = existing;
  for (let attempt = 0; !contact; attempt++) {
    if (attempt === 3) throw new Error(`Contact ${params.phone} kept being deleted while it was upserted`);
    const insertedId = await insertContact(tx, channelId, params);
    if (insertedId) return { id: insertedId, created: true };
    contact = await lockContact(tx, channelId, params.phone);
  }
  await updateContact(tx, contact, params);
  return { id: contact.id, created: false };
}

/** Writes the label parameters; returns the ids of the labels the contact did not have before. */
async function writeLabels(tx: EntityManager, contactId: string, ids: LabelIds): Promise<string[]> {
  if (ids.labels) await tx.nativeDelete(ContactLabel, { contact: contactId, label: { $nin: ids.labels } });
  if (ids.removeLabels?.length)
    await tx.nativeDelete(ContactLabel, { contact: contactId, label: { $in: ids.removeLabels } });
  const added = [...new Set([...(ids.labels ?? []), ...(ids.addLabels ?? [])])];
  if (added.length === 0) return [];
  // The contact's row is locked (lockContact, or the insert), so no concurrent upsert changes its labels meanwhile.
  const had = await tx.find(ContactLabel, { contact: contactId, label: { $in: added } }, { fields: ['label'] });
  const before = new Set(had.map((row) => row.label.id));
  await tx
    .createQueryBuilder(ContactLabel)
    .insert(added.map((label) => ({ contact: contactId, label })))
    .onConflict(['contact', 'label'])
    .ignore()
    .execute('run');
  return added.filter((label) => !before.has(label));
}

/**
 * contacts/manage: upsert by phone in one transaction. Everything is checked first (one 400 naming every bad
 * field), then the contact is inserted (ON CONFLICT DO NOTHING) or updated under a row lock, so concurrent upserts
 * of one phone meet on one row: the one that loses the insert race updates the winner's row. A created contact and
 * each label it gains queue their automation triggers in the same transaction.
 */
export async function manageContact(
  ctx: CallerContext,
  jobs: JobQueue,
  channelId: string,
  params: ContactManageValues,
): Promise<{ contact: Contact; created: boolean }> {
  return ctx.em.transactional(async (tx) => {
    const existing = await lockContact(tx, channelId, params.phone);
    const issues = labelParamIssues(params);
    if (!existing && params.name === undefined)
      issues.push({ field: 'name', problem: 'is required to create a contact (none has this phone in the channel)' });
    if (params.customFields || !existing) {
      const definitions = await listCustomFields({ ...ctx, em: tx }, channelId);
      issues.push(...checkCustomFieldValues(definitions, params.customFields ?? {}, !existing));
    }
    const labelIds = await resolveLabelParams(tx, channelId, params, issues);
    if (issues.length) throw new ValidationError(issues);

    const previousStatus = existing?.status;
    const { id, created } = await upsertRow(tx, channelId, params, existing);
    const added = await writeLabels(tx, id, labelIds);
    if (created) await queueTrigger(tx, jobs, { event: 'contact.created', eventId: id, channelId, contactId: id });
    for (const labelId of added)
      await queueTrigger(tx, jobs, {
        event: 'contact.labeled',
        eventId: randomUUID(),
        channelId,
        contactId: id,
        labelId,
      });
    const contact = (await readContact({ em: tx }, channelId, 'id', id))!;
    if (previousStatus !== undefined && previousStatus !== contact.status)
      await queueContactStatusChanged(tx, channelId, contact, previousStatus);
    return { contact, created };
  });
}

/** contacts/get: by phone in the channel, or by id (see assertInChannel). */
export async function getContact(
  ctx: CallerContext,
  channel: ScopedChannel,
  lookup: ContactLookupValues,
): Promise<Contact> {
  if (lookup.phone !== undefined) {
    const contact = await readContact(ctx, channel.id, 'phone', lookup.phone);
    if (!contact) throw contactNotFound(`with phone ${lookup.phone}`)();
    return contact;
  }
  const found = await ctx.em.findOne(ContactEntity, { id: lookup.contactId! }, { fields: ['channel'] });
  assertInChannel(ctx, channel, found?.channel.id, contactNotFound(lookup.contactId!));
  return (await readContact(ctx, channel.id, 'id', lookup.contactId!))!;
}

/**
 * contacts/delete: the contact (see assertInChannel), locked, read, then deleted; the channel's counter follows by
 * trigger.
 */
export async function deleteContact(ctx: CallerContext, channel: ScopedChannel, contactId: string): Promise<Contact> {
  return ctx.em.transactional(async (tx) => {
    const found = await tx.findOne(
      ContactEntity,
      { id: contactId },
      { fields: ['channel'], lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    assertInChannel(ctx, channel, found?.channel.id, contactNotFound(contactId));
    const contact = (await readContact({ em: tx }, channel.id, 'id', contactId))!;
    await tx.nativeDelete(ContactEntity, { id: contactId, channel: channel.id });
    return contact;
  });
}
