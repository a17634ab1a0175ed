import { defineEntity, p } from '@mikro-orm/core';
import { CHANNEL_STATUSES, QUALITY_RATINGS } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Platform } from '../platforms/index.js';
import { User } from '../users/index.js';
import { ChannelUser } from './channel-user.entity.js';

const ChannelSchema = defineEntity({
  name: 'Channel',
  tableName: 'channels',
  properties: {
    id: uuidPrimaryKey(),
    platform: () => p.manyToOne(Platform).deleteRule('cascade'),
    name: p.string().length(200),
    phone: p.string().length(20),
    status: p.enum(CHANNEL_STATUSES).default('active'),
    /** Which messaging provider carries this channel's messages (`sandbox` until a real one is configured). */
    provider: p.string().length(40).default('sandbox'),
    /** Meta's quality rating of the number (`phone_number_quality_update`, then Graph's `quality_rating`). */
    quality: p.enum(QUALITY_RATINGS).default('unknown'),
    /** Meta's messaging tier as Meta sends it (`TIER_1K`, …); null until Meta reports one. */
    messagingLimit: p.string().length(40).nullable(),
    users: () =>
      p
        .manyToMany(User)
        .pivotEntity(() => ChannelUser)
        .owner(),
    createdAt: createdAtColumn(),
  },
  indexes: [{ name: 'channels_platform_id_index', properties: ['platform'] }],
});
export class Channel extends ChannelSchema.class {}
ChannelSchema.setClass(Channel);
