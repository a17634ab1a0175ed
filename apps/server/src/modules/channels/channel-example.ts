import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExampleViewer } from '../../kit/module.js';
import { Channel } from './channel.entity.js';

/** The channel a portal viewer's "Try it" examples use: their oldest one. */
export const exampleChannelId = async (em: EntityManager, viewer: ExampleViewer) =>
  (
    await em.findOne(
      Channel,
      { users: viewer.userId, platform: viewer.platformId },
      { fields: ['id'], orderBy: { createdAt: 'asc', id: 'asc' } },
    )
  )?.id;
