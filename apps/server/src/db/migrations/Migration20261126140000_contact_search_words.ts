import { Migration } from '@mikro-orm/migrations';
import path from 'node:path';

/** Longest name prefix kept in listing order (NAME_PREFIX_LENGTH in contact-search.queries.ts). */
const NAME_PREFIX_LENGTH = 2;
/** Longest word key; a longer term looks its first this-many characters up and is rechecked on the name. */
const NAME_WORD_LENGTH = 24;

/**
 * Adds (`insert`) or removes (`delete`) the search keys of the contacts in `rows` (channel_id, id, name, created_at).
 */
function keysSql(action: 'insert' | 'delete', rows: string): string[] {
  const tables = [
    { table: 'contact_name_prefixes', keys: ['prefix'], keysOf: 'contact_name_prefixes_of(c.name) k(prefix)' },
    { table: 'contact_name_words', keys: ['word', 'shared'], keysOf: 'contact_name_word_keys_of(c.name) k' },
  ];
  return tables.map(({ table, keys, keysOf }) =>
    action === 'insert'
      ? `insert into ${table} (channel_id, ${keys.join(', ')}, created_at, contact_id) select c.channel_id, ` +
        `${keys.map((k) => `k.${k}`).join(', ')}, c.created_at, c.id from ${rows} c, ${keysOf};`
      : `delete from ${table} t using ${rows} c, ${keysOf}
          where t.channel_id = c.channel_id and ${keys.map((k) => `t.${k} = k.${k}`).join(' and ')} and t.created_at =
            c.created_at and t.contact_id = c.id;`,
  );
}

/**
 * Search keys that cost little to keep (issue #27; what they cost and gain: docs/benchmarks.md). The keys of
 * Migration20261124100000 (every name prefix up to 24 characters and every phone suffix, ~35 rows a contact) are
 * replaced by:
 *
 * - `contact_name_prefixes`, now only the prefixes up to 2 characters of each word-start suffix: the broad terms,
 *   whose many contacts must come off an index in listing order. A longer term too broad to sort (over the count
 *   cap) walks its first 2 characters' entries newest first and rechecks each on the name.
 * - `contact_name_words`: one row per word start, its word-start suffix cut to 24 characters. A term of 3 or more
 *   characters is the range [term, contact_search_next(term)) of it: at most cap + 1 entries to count, and when
 *   they are all (a selective term) they are sorted for the page. `shared` is how many leading characters the
 *   suffix shares with an earlier word start of the same name, so that a contact is counted once: its entry for a
 *   later word start matches a term of length L only as a duplicate when `shared >= L`.
 * - phones: a trigram index on `contacts.phone` (a bitmap of the phones containing the digits, rechecked on the
 *   row) instead of a row per suffix; one or two digits walk the listing index, where such a term is dense.
 *
 * Triggers keep both key tables exact for every write path, in the writing transaction, as before; a phone change
 * no longer touches them. The backfill is set-based, with the primary keys built after it.
 */
export class ContactSearchWords extends Migration {
  override name = 'Migration20261126140000_contact_search_words';

  override up(): void {
    // The triggers stay; their functions are replaced below, and the update trigger no longer watches the phone.
    this.addSql('drop trigger "contacts_search_keys_update" on "contacts";');
    this.addSql('drop function "contact_phone_suffixes_of"(text);');
    this.addSql('drop table "contact_phone_suffixes", "contact_name_prefixes";');
    this.addSql(
      `create table "contact_name_prefixes" ("channel_id" uuid not null, "prefix" text collate "C" not null, ` +
        `"created_at" timestamptz not null, "contact_id" uuid not null);`,
    );
    this.addSql(
      `create table "contact_name_words" ("channel_id" uuid not null, "word" text collate "C" not null, ` +
        `"shared" smallint not null, "created_at" timestamptz not null, "contact_id" uuid not null);`,
    );

    // Inlinable SQL functions, as in Migration20261124100000 (why: there).
    // A prefix shared by two words of one name ("Anna Andersen": a, an) is kept once.
    this.addSql(`create or replace function "contact_name_prefixes_of"(name text) returns setof text language sql
        immutable parallel safe as $$
      select distinct left(w.word, n) from contact_name_words_of(name) w, generate_series(1, ${NAME_PREFIX_LENGTH}) n
       where n <= char_length(w.word) $$;`);
    // `shared` counts up to NAME_WORD_LENGTH characters: a longer term is rechecked and its contacts taken once
    // anyway. Constant series bounds keep the planner's row estimates small (see Migration20261124100000).
    this.addSql(`create function "contact_name_word_keys_of"(name text) returns table (word text, shared smallint)
        language sql immutable parallel safe as $$
      with words as materialized (select * from contact_name_words_of(name))
      select left(w.word, ${NAME_WORD_LENGTH}), coalesce((select max(n) from words e, generate_series(1,
               ${NAME_WORD_LENGTH}) n where e.at < w.at and n <= char_length(w.word) and left(e.word, n) = left(w.word,
               n)), 0)::smallint
        from words w where w.word <> '' $$;`);
    // The least string above every string that starts with `value`, in byte order: its last character plus one
    // (skipping the surrogates, which are not characters).
    this.addSql(`create function "contact_search_next"(value text) returns text language sql immutable parallel safe
      as $$ select case when ascii(right(value, 1)) = 1114111 then value || chr(1114111)
                        else left(value, -1) || chr(ascii(right(value, 1)) + case ascii(right(value, 1)) when 55295
                          then 2049 else 1 end) end $$;`);

    // Without JIT: a bulk insert's key statements are costed as a set function per inserted row, high enough for
    // JIT, whose compilation costs far more than running them.
    this.addSql(`create or replace function "contacts_search_keys_inserted"() returns trigger language plpgsql
        set jit = off as $$
      begin
        ${keysSql('insert', 'inserted_contacts').join('\n        ')}
        return null;
      end $$;`);
    this.addSql(`create or replace function "contacts_search_keys_deleted"() returns trigger language plpgsql
        set jit = off as $$
      begin
        ${keysSql('delete', 'deleted_contacts').join('\n        ')}
        return null;
      end $$;`);
    const row = (record: string) => `(select ${record}.channel_id, ${record}.id, ${record}.name, ${record}.created_at)`;
    this.addSql(`create or replace function "contacts_search_keys_updated"() returns trigger language plpgsql as $$
      begin
        ${keysSql('delete', row('old')).join('\n        ')}
        ${keysSql('insert', row('new')).join('\n        ')}
        return null;
      end $$;`);
    this.addSql(`create or replace function "contacts_search_keys_truncated"() returns trigger language plpgsql as $$
      begin
        truncate contact_name_prefixes, contact_name_words;
        return null;
      end $$;`);
    this.addSql(`create trigger "contacts_search_keys_update" after update of "id", "name", "created_at" on
        "contacts" for each row
      when (old.id is distinct from new.id or old.name is distinct from new.name or old.created_at is distinct from
        new.created_at)
      execute function "contacts_search_keys_updated"();`);
    this.addSql(keysSql('insert', 'contacts').join('\n'));
    this.addSql(
      `alter table "contact_name_prefixes" add constraint "contact_name_prefixes_pkey" primary key ("channel_id", ` +
        `"prefix", "created_at", "contact_id");`,
    );
    this.addSql(
      `alter table "contact_name_words" add constraint "contact_name_words_pkey" primary key ("channel_id", ` +
        `"word", "created_at", "contact_id", "shared");`,
    );
    this.addSql('create index "contacts_phone_trgm_index" on "contacts" using gin ("phone" gin_trgm_ops);');
  }

  /**
   * Back to the keys of Migration20261124100000, rebuilt by its own statements. Imported as the file beside this one
   * (`.ts` under tsx and vitest, `.js` built): the migrator loads migrations by path, where `.js` does not find `.ts`.
   */
  override async down(): Promise<void> {
    this.addSql('drop index "contacts_phone_trgm_index";');
    for (const trigger of ['insert', 'delete', 'update', 'truncate'])
      this.addSql(`drop trigger "contacts_search_keys_${trigger}" on "contacts";`);
    this.addSql(
      `drop function "contacts_search_keys_inserted"(), "contacts_search_keys_deleted"(), ` +
        `"contacts_search_keys_updated"(), "contacts_search_keys_truncated"(), "contact_search_next"(text), ` +
        `"contact_name_word_keys_of"(text), "contact_name_matches"(text, text), "contact_name_prefixes_of"(text), ` +
        `"contact_name_words_of"(text), "contact_search_text"(text);`,
    );
    this.addSql('drop table "contact_name_words", "contact_name_prefixes";');
    const file = `./Migration20261124100000_contact_search_keys${path.extname(new URL(import.meta.url).pathname)}`;
    const { ContactSearchKeys } = (await import(
      new URL(file, import.meta.url).href
    )) as typeof import('./Migration20261124100000_contact_search_keys.js');
    const previous = new ContactSearchKeys(this.driver, this.config);
    previous.up();
    for (const query of previous.getQueries()) this.addSql(query);
  }
}
