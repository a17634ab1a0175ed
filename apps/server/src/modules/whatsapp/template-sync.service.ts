import { LockMode } from '@mikro-orm/core';
import { AppError } from '../../kit/errors.js';
import { taskQueue, type JobQueue } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import { pauseTemplateBroadcasts } from '../broadcasts/index.js';
import type { TemplateSyncResult } from '../messages/index.js';
import { Template } from '../templates/index.js';
import { syncedTemplates, type SyncedTemplate } from '../whatsapp-graph/index.js';
import { WhatsAppConnection } from './whatsapp-connection.entity.js';
import { requireCredentials } from './whatsapp-credentials.js';
import type { WhatsApp } from './whatsapp.js';
import type { ServiceContext } from '../../kit/context.js';

/** The queue of one channel's sync; its jobs are keyed by channel, so requests made while one waits merge. */
export const TEMPLATE_SYNC_QUEUE = taskQueue<{ channelId: string }>('whatsapp.template-sync');

const keyOf = (template: { name: string; language: string }) => `${template.name}\u0000${template.language}`;

/**
 * Makes `templates` the channel's templates, in the caller's transaction: upserted by (channel, name, language),
 * so a template that stays keeps its id, and every other template of the channel deleted, so one that disappeared
 * from Meta (or moved to a status we do not list) stops being listed. A template Meta lists paused or disabled
 * pauses its broadcasts still sending, as its webhook would have (one missed, or one the sync was queued for).
 */
export async function storeSyncedTemplates(
  { em: tx }: ServiceContext,
  channelId: string,
  templates: SyncedTemplate[],
): Promise<TemplateSyncResult> {
  const kept = new Set(templates.map(keyOf));
  const existing = await tx.find(Template, { channel: channelId }, { fields: ['name', 'language'] });
  const gone = existing.filter((template) => !kept.has(keyOf(template))).map((template) => template.id);
  if (gone.length > 0) await tx.nativeDelete(Template, { id: { $in: gone } });
  if (templates.length > 0) {
    await tx.upsertMany(
      Template,
      templates.map((template) => ({ channel: channelId, ...template })),
      { onConflictFields: ['channel', 'name', 'language'], onConflictExcludeFields: ['id', 'createdAt'] },
    );
  }
  for (const template of templates) await pauseTemplateBroadcasts(tx, { channelId, ...template });
  return { synced: templates.length, approved: templates.filter((template) => template.status === 'approved').length };
}

/**
 * Pulls every page of the channel's WhatsApp Business Account templates and stores them (storeSyncedTemplates) in
 * one transaction. The channel's connection row is locked meanwhile, so two syncs (or a sync and a credential
 * rotation) write one after the other; a listing taken from an account the channel has since left is dropped.
 * Graph refusals are ProviderErrors (400/502/503).
 */
export async function syncChannelTemplates(
  { em }: ServiceContext,
  whatsApp: WhatsApp,
  channelId: string,
  logger?: Logger,
): Promise<TemplateSyncResult> {
  const credentials = await requireCredentials(em, whatsApp, channelId);
  const listing = await whatsApp.graph.listTemplates(credentials);
  const templates = syncedTemplates(listing.templates);
  logger?.info(
    {
      channelId,
      pages: listing.pages,
      pulled: listing.templates.length,
      unreadable: listing.unreadable,
      listed: templates.length,
    },
    'WhatsApp templates pulled',
  );
  return em.transactional(async (tx) => {
    const connection = await tx.findOne(
      WhatsAppConnection,
      { channel: channelId },
      { fields: ['wabaId'], lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (connection?.wabaId !== credentials.wabaId) {
      throw new AppError(
        503,
        'service_unavailable',
        'The channel’s WhatsApp credentials changed during the sync; sync again.',
      );
    }
    return storeSyncedTemplates({ em: tx }, channelId, templates);
  });
}

/**
 * Queues a durable sync of one channel inside the caller's transaction (e.g. when Meta's
 * `message_template_status_update` webhook arrives): it runs once that transaction commits, in the worker.
 */
export async function requestTemplateSync(
  { em: tx }: ServiceContext,
  jobs: JobQueue,
  channelId: string,
): Promise<void> {
  await jobs.enqueueTask(tx, TEMPLATE_SYNC_QUEUE, { channelId }, { singletonKey: channelId });
}
