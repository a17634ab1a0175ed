import { randomUUID } from 'node:crypto';
import { p } from '@mikro-orm/core';

/** Columns every table shares. UUIDs come from the app (and the database default, for bulk SQL loads). */
export const uuidPrimaryKey = () =>
  p
    .uuid()
    .primary()
    .onCreate(() => randomUUID())
    .defaultRaw('gen_random_uuid()');
export const createdAtColumn = () =>
  p
    .datetime()
    .onCreate(() => new Date())
    .defaultRaw('now()');
export const updatedAtColumn = () =>
  p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date())
    .defaultRaw('now()');
