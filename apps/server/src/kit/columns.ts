import { randomUUID } from 'node:crypto';
import { p } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import type { SqlDefinitions } from './sql-definitions.ts';

/** Columns every table shares. UUIDs come from the app (and the database default, for bulk SQL loads). */
export const uuidPrimaryKey = () =>
  p
    .uuid()
    .primary()
    .onCreate(() => randomUUID())
    .defaultRaw('gen_random_uuid()');

/**
 * A new id that sorts by when it was made: a UUIDv7 (RFC 9562), a millisecond timestamp then random bits, from the
 * `uuid` package (the reference implementation, which also keeps one process's ids increasing within a millisecond).
 * Rows written in bulk under such ids are appended at the right edge of their B-tree indexes instead of at random
 * leaves; once an index no longer fits in memory, random keys make every insert read and dirty a leaf of its own
 * (docs/benchmarks.md, Broadcasts). Any UUID remains a valid id: rows made before keep their random ones.
 */
export const timeOrderedUuid = (): string => uuidv7();

/** The same made by PostgreSQL, for INSERT … SELECT (TIME_ORDERED_UUID_FUNCTION defines it). */
export const TIME_ORDERED_UUID_SQL = 'uuid_time_ordered()';

/**
 * `uuid_time_ordered()`: the columns' default and what INSERT … SELECT uses. PostgreSQL 18 has `uuidv7()`, 15
 * (supported here) has none: this one definition runs on both, so every server makes the same ids (from
 * `gen_random_uuid()`, its first 48 bits replaced by the time in milliseconds and its version nibble set to 7; the
 * variant bits stay those of version 4).
 */
export const TIME_ORDERED_UUID_FUNCTION: SqlDefinitions = {
  functions: [
    `create or replace function "uuid_time_ordered"() returns uuid language sql volatile parallel safe as $$
      select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
               placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
               from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
    $$;`,
  ],
  triggers: [],
};

/** A primary key of time-ordered ids (timeOrderedUuid): for the tables written in bulk. */
export const timeOrderedUuidPrimaryKey = () =>
  p.uuid().primary().onCreate(timeOrderedUuid).defaultRaw(TIME_ORDERED_UUID_SQL);

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
