import { defineEntity, p } from '@mikro-orm/core';
import { USER_ROLES } from '@switchboard/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Platform } from '../platforms/index.js';

const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: uuidPrimaryKey(),
    platform: () => p.manyToOne(Platform).deleteRule('cascade'),
    email: p.string().length(320),
    name: p.string().length(200),
    role: p.enum(USER_ROLES).default('member'),
    platformAccess: p.boolean().default(false),
    permissions: p.array().default([]),
    passwordHash: p.string().nullable().hidden(),
    /**
     * Portal sessions remember the version they were signed in at; a trigger bumps it when the password changes
     * or `settings:api` is taken away, which ends every session signed in before (portal-session.sql.ts).
     */
    sessionVersion: p.integer().default(0),
    createdAt: createdAtColumn(),
  },
  uniques: [{ properties: ['platform', 'email'] }],
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);
