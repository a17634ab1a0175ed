import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { User } from '../users/index.js';

const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: uuidPrimaryKey(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    name: p.string().length(100),
    /** The first characters of the key, shown in listings and used to revoke it. */
    prefix: p.string().length(32).unique(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: p.string().length(64).unique().hidden(),
    createdAt: createdAtColumn(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'api_keys_user_id_index', properties: ['user'] }],
});
export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
