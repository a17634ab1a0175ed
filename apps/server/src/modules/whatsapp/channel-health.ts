import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { QualityRating, WebhookEventOf } from '@switchboard/contract';
import { AppError } from '../../kit/errors.js';
import { taskQueue, type JobQueue, type Task } from '../../kit/jobs.js';
import { Channel, channelView } from '../channels/index.js';
import { emitEvent } from '../emitter/index.js';
import { requireCredentials } from './whatsapp-credentials.js';
import { qualityOf } from '../whatsapp-graph/index.js';
import type { WhatsApp } from './whatsapp.js';

/** A number's health as Meta reports it: what changed, each part optional. */
export interface ChannelHealth {
  quality?: QualityRating;
  messagingLimit?: string;
}

const CHANNEL_UPDATED = 'channel.updated';

/**
 * Stores a number's quality and tier in the caller's transaction (the row locked) and queues `channel.updated` with
 * each field that moved; a repeat queues nothing. Returns whether anything changed.
 */
export async function applyChannelHealth(
  tx: EntityManager,
  channelId: string,
  health: ChannelHealth,
): Promise<boolean> {
  const channel = await tx.findOneOrFail(Channel, channelId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const changes: NonNullable<WebhookEventOf<typeof CHANNEL_UPDATED>['data']['changes']> = {};
  if (health.quality !== undefined && health.quality !== channel.quality)
    changes.quality = { previous: channel.quality, current: health.quality };
  if (health.messagingLimit !== undefined && health.messagingLimit !== (channel.messagingLimit ?? null))
    changes.messagingLimit = { previous: channel.messagingLimit ?? null, current: health.messagingLimit };
  if (Object.keys(changes).length === 0) return false;
  tx.assign(channel, {
    ...(changes.quality ? { quality: health.quality } : {}),
    ...(changes.messagingLimit ? { messagingLimit: health.messagingLimit } : {}),
  });
  await tx.flush();
  const event: WebhookEventOf<typeof CHANNEL_UPDATED> = {
    type: CHANNEL_UPDATED,
    timestamp: new Date().toISOString(),
    data: { channelId, channel: channelView(channel), changes },
  };
  await emitEvent({ em: tx }, channel.platform.id, event);
  return true;
}

/** Reads a number's quality rating from Graph after Meta's `phone_number_quality_update` (which carries the tier). */
const PHONE_QUALITY_QUEUE = taskQueue<{ channelId: string; messagingLimit?: string }>('whatsapp.phone-quality');

/** Queues the read in the caller's transaction (the webhook's): it runs once that commits, outside it. */
export async function requestPhoneQuality(
  tx: EntityManager,
  jobs: JobQueue,
  channelId: string,
  messagingLimit: string | undefined,
): Promise<void> {
  await jobs.enqueueTask(tx, PHONE_QUALITY_QUEUE, {
    channelId,
    ...(messagingLimit === undefined ? {} : { messagingLimit }),
  });
}

/**
 * The read: Graph's `quality_rating` (and tier, when the webhook had none), then both stored with one
 * `channel.updated`. Graph unreachable or failing: thrown, so pg-boss retries; a refusal (token revoked) stores the
 * tier the webhook carried and leaves the rating as it was.
 */
export function phoneQualityTask(whatsApp: WhatsApp): Task<{ channelId: string; messagingLimit?: string }> {
  return {
    queue: PHONE_QUALITY_QUEUE,
    concurrency: 2,
    async run({ channelId, messagingLimit }, { em, logger }) {
      let read: { quality?: string; messagingLimit?: string } = {};
      try {
        const credentials = await requireCredentials(em, whatsApp, channelId);
        read = await whatsApp.graph.phoneQuality(credentials);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        logger.warn({ channelId, reason: error.message }, 'WhatsApp number quality not read; the tier is stored');
      }
      const health: ChannelHealth = {
        ...(read.quality === undefined ? {} : { quality: qualityOf(read.quality) }),
        ...((messagingLimit ?? read.messagingLimit) === undefined
          ? {}
          : { messagingLimit: messagingLimit ?? read.messagingLimit }),
      };
      await em.transactional((tx) => applyChannelHealth(tx, channelId, health));
    },
  };
}
