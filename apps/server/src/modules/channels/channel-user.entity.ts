import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../users/index.js';
import { Channel } from './channel.entity.js';

/** The users authorized for a channel. Its own entity so that the lookup by user is declared beside the table. */
const ChannelUserSchema = defineEntity({
  name: 'ChannelUser',
  tableName: 'channel_users',
  properties: {
    channel: () => p.manyToOne(Channel).primary().deleteRule('cascade').updateRule('cascade'),
    user: () => p.manyToOne(User).primary().deleteRule('cascade').updateRule('cascade'),
  },
  indexes: [{ name: 'channel_users_user_id_index', properties: ['user'] }],
});
export class ChannelUser extends ChannelUserSchema.class {}
ChannelUserSchema.setClass(ChannelUser);
