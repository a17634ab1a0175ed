import { Migration } from '@mikro-orm/migrations';

/**
 * An exact per-channel contact count for contacts/list: `count(*)` over a big channel scans it on every request
 * (docs/benchmarks.md), a one-row lookup does not. Statement-level triggers with transition tables keep it exact for
 * every write path (ORM batches, bulk SQL, deletes, channel deletion) in the writing transaction: a rollback
 * rolls the count back too. Concurrent inserts into one channel queue on its counter row until commit, which
 * bulk imports can afford. Contacts never move between channels, so updates cannot change the counts.
 */
export class ContactCounts extends Migration {
  override name = 'Migration20261122044116_contact_counts';

  override up(): void {
    this.addSql(
      `create table "channel_contact_counts" ("channel_id" uuid not null, "total" int not null default 0, primary ` +
        `key ("channel_id"));`,
    );
    this.addSql(
      `alter table "channel_contact_counts" add constraint "channel_contact_counts_channel_id_foreign" foreign key ` +
        `("channel_id") references "channels" ("id") on delete cascade;`,
    );

    this.addSql(`create function "contacts_count_inserted"() returns trigger language plpgsql as $$
      begin
        insert into channel_contact_counts (channel_id, total)
        select channel_id, count(*) from inserted_contacts group by channel_id order by channel_id
        on conflict (channel_id) do update set total = channel_contact_counts.total + excluded.total;
        return null;
      end $$;`);
    // Only existing counters are decremented: when a channel is deleted its counter row may already be gone.
    this.addSql(`create function "contacts_count_deleted"() returns trigger language plpgsql as $$
      begin
        update channel_contact_counts c set total = c.total - d.removed
          from (select channel_id, count(*) as removed from deleted_contacts group by channel_id) d
         where c.channel_id = d.channel_id;
        return null;
      end $$;`);
    this.addSql(`create function "contacts_count_truncated"() returns trigger language plpgsql as $$
      begin
        delete from channel_contact_counts;
        return null;
      end $$;`);
    this.addSql(`create function "contacts_keep_channel"() returns trigger language plpgsql as $$
      begin
        raise exception 'a contact cannot move to another channel' using errcode = 'check_violation';
      end $$;`);
    this.addSql(
      `create trigger "contacts_count_insert" after insert on "contacts" referencing new table as inserted_contacts ` +
        `for each statement execute function "contacts_count_inserted"();`,
    );
    this.addSql(
      `create trigger "contacts_count_delete" after delete on "contacts" referencing old table as deleted_contacts ` +
        `for each statement execute function "contacts_count_deleted"();`,
    );
    this.addSql(
      `create trigger "contacts_count_truncate" after truncate on "contacts" for each statement execute function ` +
        `"contacts_count_truncated"();`,
    );
    this.addSql(
      `create trigger "contacts_channel_fixed" before update of "channel_id" on "contacts" for each row when ` +
        `(old.channel_id is distinct from new.channel_id) execute function "contacts_keep_channel"();`,
    );

    this.addSql(
      `insert into "channel_contact_counts" ("channel_id", "total") select "channel_id", count(*) from "contacts" ` +
        `group by "channel_id";`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists "contacts_channel_fixed" on "contacts";`);
    this.addSql(`drop trigger if exists "contacts_count_truncate" on "contacts";`);
    this.addSql(`drop trigger if exists "contacts_count_delete" on "contacts";`);
    this.addSql(`drop trigger if exists "contacts_count_insert" on "contacts";`);
    this.addSql(
      `drop function if exists "contacts_keep_channel"(), "contacts_count_truncated"(), "contacts_count_deleted"(), ` +
        `"contacts_count_inserted"();`,
    );
    this.addSql(`drop table if exists "channel_contact_counts" cascade;`);
  }
}
