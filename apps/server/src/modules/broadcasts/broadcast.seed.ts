import type { EntityManager } from '@mikro-orm/postgresql';
import { broadcastCreateParams, type BroadcastCreateValues } from '@switchboard/contract';
import { z } from 'zod';
import { SeedError, seededId, seedRef, seedSection } from '../../kit/seed.js';
import { Channel } from '../channels/index.js';
import { broadcastTemplate, createIssues } from './broadcast-checks.js';
import { resolveAudienceChunk } from './broadcast-audience.js';
import { BroadcastRecipient } from './broadcast-recipient.entity.js';
import { Broadcast } from './broadcast.entity.js';

const create = broadcastCreateParams.shape;

/**
 * A broadcast of the seed file: the fields broadcasts/manage's create takes (checked the same way once the channel's
 * labels, contacts and templates of this file exist) and a status. A `scheduled` one starts at its time; a
 * `completed` one has its audience resolved now, its recipients to send recorded `delivered` (without messages: a
 * seed sends nothing); a `cancelled` one has none.
 */
export const broadcastsSeed = seedSection({
  key: 'broadcasts',
  item: z
    .object({
      ref: seedRef.optional(),
      channel: seedRef,
      name: create.name,
      templateName: create.templateName,
      language: create.language,
      variables: create.variables,
      audience: create.audience,
      status: z.enum(['scheduled', 'completed', 'cancelled']).default('scheduled'),
      scheduledAt: create.scheduledAt,
      ratePerSecond: z.number().int().min(1).default(80),
    })
    .strict(),
  async load(ctx, item, path) {
    const channel = await ctx.ref('channels', Channel, item.channel, `${path}.channel`);
    await ctx.em.flush();
    const values: BroadcastCreateValues = { ...item, action: 'create' };
    if (item.status === 'scheduled' && item.scheduledAt === undefined)
      throw new SeedError(`${path}.scheduledAt`, 'is required for a scheduled broadcast');
    const now = new Date();
    const issues = await createIssues(ctx.em, channel.id, values, { channelRate: item.ratePerSecond, now });
    // A finished broadcast of the file may have been scheduled in the past.
    const [issue] = issues.filter((found) => item.status === 'scheduled' || found.field !== 'scheduledAt');
    if (issue) throw new SeedError(`${path}.${issue.field}`, issue.problem);
    const broadcast = ctx.em.create(Broadcast, {
      channel,
      name: item.name,
      templateName: item.templateName,
      language: (await broadcastTemplate(ctx.em, channel.id, values)).language,
      variables: item.variables ?? [],
      audience: item.audience,
      status: item.status,
      scheduledAt: item.scheduledAt ? new Date(item.scheduledAt) : null,
      ratePerSecond: item.ratePerSecond,
      startedAt: item.status === 'completed' ? now : null,
      completedAt: item.status === 'scheduled' ? null : now,
      completedEventAt: item.status === 'scheduled' ? null : now,
    });
    await ctx.em.flush();
    if (item.status === 'completed') await recordDelivered(ctx.em, broadcast);
    return seededId(broadcast);
  },
});

/** A seeded completed broadcast: its audience resolved, every recipient to send recorded delivered. */
async function recordDelivered(em: EntityManager, broadcast: Broadcast) {
  const audience = { id: broadcast.id, channelId: broadcast.channel.id, audience: broadcast.audience };
  const counts = await resolveAudienceChunk(em, audience, { after: null, limit: null });
  await em.nativeUpdate(BroadcastRecipient, { broadcast: broadcast.id, status: 'queued' }, { status: 'delivered' });
  await em.nativeUpdate(
    Broadcast,
    { id: broadcast.id },
    { recipients: counts.recipients, delivered: counts.queued, skipped: counts.skipped },
  );
}
