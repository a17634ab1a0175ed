import type { EntityManager } from '@mikro-orm/postgresql';
import { BROADCAST_MAX_SCHEDULE_DAYS, type BroadcastAudience, type BroadcastCreateValues } from '@switchboard/contract';
import type { FieldIssue } from '../../kit/errors.js';
import { Contact } from '../contacts/index.js';
import { Label } from '../labels/index.js';
import { assertTemplateApproved, Template, templateSendParts, templateSendIssues } from '../templates/index.js';
import { Broadcast } from './broadcast.entity.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Ids of `wanted` the channel does not have, as issues naming each one's place in the list. */
async function missingIds(
  tx: EntityManager,
  entity: typeof Label | typeof Contact,
  channelId: string,
  wanted: readonly string[],
  path: string,
  what: string,
): Promise<FieldIssue[]> {
  const where = { channel: channelId, id: { $in: [...new Set(wanted)] } };
  const found = await tx.find(entity as typeof Label, where, { fields: ['id'] });
  const known = new Set(found.map((row) => row.id));
  return wanted.flatMap((id, index) =>
    known.has(id) ? [] : [{ field: `${path}.${index}`, problem: `${what} not found in this channel` }],
  );
}

function audienceIssues(tx: EntityManager, channelId: string, audience: BroadcastAudience): Promise<FieldIssue[]> {
  if (audience.labelIds) return missingIds(tx, Label, channelId, audience.labelIds, 'audience.labelIds', 'label');
  if (audience.contactIds)
    return missingIds(tx, Contact, channelId, audience.contactIds, 'audience.contactIds', 'contact');
  return Promise.resolve([]);
}

function timingIssues(values: BroadcastCreateValues, channelRate: number, now: Date): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (values.scheduledAt !== undefined) {
    const at = Date.parse(values.scheduledAt);
    if (at < now.getTime()) issues.push({ field: 'scheduledAt', problem: 'must not be in the past' });
    else if (at > now.getTime() + BROADCAST_MAX_SCHEDULE_DAYS * DAY_MS)
      issues.push({ field: 'scheduledAt', problem: `must be at most ${BROADCAST_MAX_SCHEDULE_DAYS} days ahead` });
  }
  if (values.ratePerSecond !== undefined && values.ratePerSecond > channelRate)
    issues.push({ field: 'ratePerSecond', problem: `must be at most ${channelRate} (the channel’s rate)` });
  return issues;
}

/**
 * What broadcasts/manage's create refuses once the contract's schema has passed, every issue at once, each naming its
 * field: a name the channel already uses, a template that is not an approved one of the channel (or a variable count
 * other than its own, a placeholder naming no custom field), labels and contacts the channel does not have, a time
 * outside now … now + 30 days, a rate above the channel's.
 */
export async function createIssues(
  tx: EntityManager,
  channelId: string,
  values: BroadcastCreateValues,
  limits: { channelRate: number; now: Date },
): Promise<FieldIssue[]> {
  await assertTemplateApproved(tx, channelId, values.templateName, values.language);
  const sameName = await tx.count(Broadcast, { channel: channelId, name: values.name });
  return [
    ...(sameName ? [{ field: 'name', problem: `a broadcast named "${values.name}" exists in this channel` }] : []),
    ...(await templateSendIssues(tx, channelId, '', { ...values, variables: values.variables ?? [] })),
    ...(await audienceIssues(tx, channelId, values.audience)),
    ...timingIssues(values, limits.channelRate, limits.now),
  ];
}

/**
 * The approved template createIssues accepted (its only language, or the one asked for): its language, and the
 * broadcast's header and button values checked against it (placeholders are filled per recipient at the start).
 */
export async function broadcastTemplate(tx: EntityManager, channelId: string, values: BroadcastCreateValues) {
  const template = await tx.findOneOrFail(
    Template,
    {
      channel: channelId,
      name: values.templateName,
      status: 'approved',
      ...(values.language === undefined ? {} : { language: values.language }),
    },
    { fields: ['language', 'header', 'buttons'] },
  );
  const { parts, problems } = templateSendParts({ header: template.header ?? null, buttons: template.buttons }, values);
  return { language: template.language, parts, problems };
}
