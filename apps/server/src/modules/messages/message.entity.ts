import { defineEntity, p } from '@mikro-orm/core';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES, MESSAGE_TYPES } from '@switchboard/contract';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/channel.entity.js';

const MessageSchema = defineEntity({
  name: 'Message',
  tableName: 'messages',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.manyToOne(Channel).deleteRule('cascade'),
    /** The provider's message id (e.g. `wamid.…`); looked up across channels, so unique on its own. */
    msgid: p.string().length(200).unique(),
    direction: p.enum(MESSAGE_DIRECTIONS),
    type: p.enum(MESSAGE_TYPES),
    status: p.enum(MESSAGE_STATUSES),
    to: p.string().length(20),
    templateName: p.string().length(200).nullable(),
    language: p.string().length(20).nullable(),
    variables: p.json<string[]>().nullable(),
    provider: p.string().length(40).default('sandbox'),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  indexes: [{ name: 'messages_channel_created_index', columns: [{ name: 'channel_id' }, { name: 'created_at', sort: 'DESC' }] }],
});
export class Message extends MessageSchema.class {}
MessageSchema.setClass(Message);
