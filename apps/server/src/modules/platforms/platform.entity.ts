import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';

const PlatformSchema = defineEntity({
  name: 'Platform',
  tableName: 'platforms',
  properties: {
    id: uuidPrimaryKey(),
    name: p.string().length(200),
    domain: p.string().length(253).unique(),
    isActive: p.boolean().default(true),
    createdAt: createdAtColumn(),
  },
});
export class Platform extends PlatformSchema.class {}
PlatformSchema.setClass(Platform);
