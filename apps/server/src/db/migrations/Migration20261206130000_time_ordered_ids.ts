import { Migration } from '@mikro-orm/migrations';

/**
 * Time-ordered ids for the rows written in bulk: messages (a broadcast queues its sends in one INSERT … SELECT)
 * and broadcasts, whose id leads every key of their recipients (`broadcast_id`, then the phone, inserted in phone
 * order). A random UUID puts each new key on a random leaf of its B-tree: once the indexes outgrow the buffer cache
 * every insert reads and dirties a leaf of its own (docs/benchmarks.md, Broadcasts); a UUIDv7 (RFC 9562: a
 * millisecond timestamp, then random bits) puts them at the right edge. The server makes them (kit/columns.ts,
 * `timeOrderedUuid`); `uuid_time_ordered()` makes the same in SQL, as the columns' default and for INSERT … SELECT.
 * PostgreSQL 18 has `uuidv7()`, 15 (supported here) has none: this one definition runs on both, so every server
 * makes the same ids (from `gen_random_uuid()`, its first 48 bits replaced by the time in milliseconds and its
 * version nibble set to 7; the variant bits stay those of version 4). Existing rows keep their ids: any UUID stays
 * valid.
 */
export class TimeOrderedIds extends Migration {
  override name = 'Migration20261206130000_time_ordered_ids';

  override up(): void {
    this.addSql(`create function "uuid_time_ordered"() returns uuid language sql volatile parallel safe as $$
      select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
               placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
               from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
    $$;`);
    this.addSql(`alter table "messages" alter column "id" set default uuid_time_ordered();`);
    this.addSql(`alter table "broadcasts" alter column "id" set default uuid_time_ordered();`);
  }

  override down(): void {
    this.addSql(`alter table "broadcasts" alter column "id" set default gen_random_uuid();`);
    this.addSql(`alter table "messages" alter column "id" set default gen_random_uuid();`);
    this.addSql(`drop function "uuid_time_ordered"();`);
  }
}
