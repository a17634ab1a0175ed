import { Migration } from '@mikro-orm/migrations';

/** Longest name prefix stored; a longer term looks its first this-many characters up and is rechecked on the name. */
const NAME_PREFIX_LENGTH = 24;
/** The phone column's length. */
const PHONE_LENGTH = 20;
/** Where a word starts: after a space, and at a letter or digit after punctuation (and at the beginning). */
const WORD_BOUNDARY = `'(?<= )|(?<=[[:punct:]])(?=[^ [:punct:]])'`;

/**
 * Adds (`insert`) or removes (`delete`) the search keys of the contacts in `rows` (channel_id, id, name, phone,
 * created_at).
 */
function keysSql(action: 'insert' | 'delete', rows: string): string[] {
  const tables = [
    { table: 'contact_name_prefixes', key: 'prefix', keysOf: 'contact_name_prefixes_of(c.name)' },
    { table: 'contact_phone_suffixes', key: 'suffix', keysOf: 'contact_phone_suffixes_of(c.phone)' },
  ];
  return tables.map(({ table, key, keysOf }) =>
    action === 'insert'
      ? `insert into ${table} (channel_id, ${key}, created_at, contact_id) select c.channel_id, k.${key}, ` +
        `c.created_at, c.id from ${rows} c, ${keysOf} k(${key});`
      : `delete from ${table} t using ${rows} c, ${keysOf} k(${key})
          where t.channel_id = c.channel_id and t.${key} = k.${key} collate "C" and t.created_at = c.created_at and
            t.contact_id = c.id;`,
  );
}

/**
 * Search keys for contacts/list, so that any search is an index lookup already in listing order (see
 * contact-search.queries.ts for the queries and docs/api.md "Contacts and search" for the semantics):
 *
 * - `contact_name_prefixes`: for each contact, every prefix (up to 24 characters) of every word-start suffix of its
 *   name, lower-cased with runs of whitespace folded: "Anna Müller" gives `a` … `anna müller` and `m` … `müller`.
 *   A term matches a contact exactly when it is one of its keys; its contacts, newest first, are the index entries
 *   under (channel, key) read backwards: no sort, no recheck, a count that stops at the cap reads only the index.
 * - `contact_phone_suffixes`: every suffix of the phone; the phones containing `2772` are those with a suffix
 *   between `2772` and `2772:` (byte order), a short range for four digits even in a big channel (docs/benchmarks.md).
 *
 * Triggers keep both exact for every write path (ORM, bulk SQL, COPY, channel deletion cascading to contacts),
 * in the writing transaction; a contact's keys are found again from its old values to delete them, so the key
 * tables need no index besides their primary key. The trigram indexes they replace are dropped (fewer indexes
 * to maintain on every write). The backfill is set-based, with the primary keys built after it.
 */
export class ContactSearchKeys extends Migration {
  override name = 'Migration20261124100000_contact_search_keys';

  override up(): void {
    this.addSql(
      `create table "contact_name_prefixes" ("channel_id" uuid not null, "prefix" text collate "C" not null, ` +
        `"created_at" timestamptz not null, "contact_id" uuid not null);`,
    );
    this.addSql(
      `create table "contact_phone_suffixes" ("channel_id" uuid not null, "suffix" text collate "C" not null, ` +
        `"created_at" timestamptz not null, "contact_id" uuid not null);`,
    );

    // SQL functions without STRICT or BEGIN ATOMIC, so that the planner inlines them into the statements that use
    // them. Their row counts come from unnest (estimated 10) and constant generate_series bounds: with the default
    // estimate of a thousand rows per set-returning call, the planner would see millions of keys per contact,
    // delete a contact's keys by a sequential scan and JIT-compile every trigger call.
    this.addSql(`create function "contact_search_text"(value text) returns text language sql immutable parallel safe
      as $$ select lower(btrim(regexp_replace(value, '\\s+', ' ', 'g'), ' ')) $$;`);
    // The word-start suffixes of a name, in order: "Jean-Luc Picard" gives "jean-luc picard", "luc picard", "picard".
    this.addSql(`create function "contact_name_words_of"(name text) returns table (word text, at bigint) language sql
        immutable parallel safe as $$
      select array_to_string(t.pieces[p.at:], ''), p.at
        from (select regexp_split_to_array(contact_search_text(name), ${WORD_BOUNDARY}) as pieces) t,
             unnest(t.pieces) with ordinality p(piece, at) $$;`);
    // A prefix shared by two words of one name ("Anna Andersen": a, an) is kept once, for the first.
    this
      .addSql(`create function "contact_name_prefixes_of"(name text) returns setof text language sql immutable parallel
        safe as $$
      with words as materialized (select * from contact_name_words_of(name))
      select left(w.word, n) from words w, generate_series(1, ${NAME_PREFIX_LENGTH}) n
       where n <= char_length(w.word) and not exists (select 1 from words e where e.at < w.at and starts_with(e.word,
         left(w.word, n))) $$;`);
    this.addSql(`create function "contact_name_matches"(name text, term text) returns boolean language sql immutable
        parallel safe
      as $$ select exists (select 1 from contact_name_words_of(name) w where starts_with(w.word,
        contact_search_text(term))) $$;`);
    this.addSql(`create function "contact_phone_suffixes_of"(phone text) returns setof text language sql immutable
        parallel safe
      as $$ select substr(phone, p) from generate_series(1, ${PHONE_LENGTH}) p where p <= char_length(phone) $$;`);

    this.addSql(`create function "contacts_search_keys_inserted"() returns trigger language plpgsql as $$
      begin
        ${keysSql('insert', 'inserted_contacts').join('\n        ')}
        return null;
      end $$;`);
    this.addSql(`create function "contacts_search_keys_deleted"() returns trigger language plpgsql as $$
      begin
        ${keysSql('delete', 'deleted_contacts').join('\n        ')}
        return null;
      end $$;`);
    const row = (record: string) =>
      `(select ${record}.channel_id, ${record}.id, ${record}.name, ${record}.phone, ${record}.created_at)`;
    this.addSql(`create function "contacts_search_keys_updated"() returns trigger language plpgsql as $$
      begin
        ${keysSql('delete', row('old')).join('\n        ')}
        ${keysSql('insert', row('new')).join('\n        ')}
        return null;
      end $$;`);
    this.addSql(`create function "contacts_search_keys_truncated"() returns trigger language plpgsql as $$
      begin
        truncate contact_name_prefixes, contact_phone_suffixes;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "contacts_search_keys_insert" after insert on "contacts" referencing new table as ` +
        `inserted_contacts for each statement execute function "contacts_search_keys_inserted"();`,
    );
    this.addSql(
      `create trigger "contacts_search_keys_delete" after delete on "contacts" referencing old table as ` +
        `deleted_contacts for each statement execute function "contacts_search_keys_deleted"();`,
    );
    this.addSql(`create trigger "contacts_search_keys_update" after update of "id", "name", "phone", "created_at" on
        "contacts" for each row
      when (old.id is distinct from new.id or old.name is distinct from new.name or old.phone is distinct from
        new.phone or old.created_at is distinct from new.created_at)
      execute function "contacts_search_keys_updated"();`);
    this.addSql(
      `create trigger "contacts_search_keys_truncate" after truncate on "contacts" for each statement execute ` +
        `function "contacts_search_keys_truncated"();`,
    );

    this.addSql(keysSql('insert', 'contacts').join('\n'));
    this.addSql(
      `alter table "contact_name_prefixes" add constraint "contact_name_prefixes_pkey" primary key ("channel_id", ` +
        `"prefix", "created_at", "contact_id");`,
    );
    this.addSql(
      `alter table "contact_phone_suffixes" add constraint "contact_phone_suffixes_pkey" primary key ("channel_id", ` +
        `"suffix", "created_at", "contact_id");`,
    );

    this.addSql('drop index if exists "contacts_name_trgm_index";');
    this.addSql('drop index if exists "contacts_phone_trgm_index";');
  }

  override down(): void {
    this.addSql('create index "contacts_name_trgm_index" on "contacts" using gin ("name" gin_trgm_ops);');
    this.addSql('create index "contacts_phone_trgm_index" on "contacts" using gin ("phone" gin_trgm_ops);');
    for (const trigger of ['insert', 'delete', 'update', 'truncate'])
      this.addSql(`drop trigger if exists "contacts_search_keys_${trigger}" on "contacts";`);
    this.addSql(
      `drop function if exists "contacts_search_keys_inserted"(), "contacts_search_keys_deleted"(), ` +
        `"contacts_search_keys_updated"(), "contacts_search_keys_truncated"();`,
    );
    this.addSql(
      `drop function if exists "contact_name_matches"(text, text), "contact_name_prefixes_of"(text), ` +
        `"contact_name_words_of"(text), "contact_phone_suffixes_of"(text), "contact_search_text"(text);`,
    );
    this.addSql('drop table if exists "contact_name_prefixes", "contact_phone_suffixes";');
  }
}
