import { statementTrigger, type SqlDefinitions } from '../../kit/sql-definitions.ts';

/** The longest prefix kept in listing order: a term this short reads one `contact_name_prefixes` key. */
export const NAME_PREFIX_LENGTH = 2;
/** The longest word key; a longer term looks its first this-many characters up and is rechecked on the name. */
export const NAME_WORD_LENGTH = 24;
/** Where a word starts: after a space, and at a letter or digit after punctuation (and at the beginning). */
const WORD_BOUNDARY = `'(?<= )|(?<=[[:punct:]])(?=[^ [:punct:]])'`;

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

const row = (record: string) => `(select ${record}.channel_id, ${record}.id, ${record}.name, ${record}.created_at)`;

/**
 * Search keys for contacts/list (contact-search.queries.ts reads them; docs/benchmarks.md says what they cost):
 * `contact_name_prefixes`, the prefixes up to NAME_PREFIX_LENGTH characters of each word-start suffix of a name
 * (lower-cased, whitespace folded), and `contact_name_words`, one row per word start, its suffix cut to
 * NAME_WORD_LENGTH characters, with `shared`: how many leading characters it shares with an earlier word start of the
 * same name, so that a contact is counted once. Triggers, so that every write path (ORM, bulk SQL, COPY, a channel's
 * deletion cascading to its contacts) keeps them exact in the writing transaction; a contact's keys are found again
 * from its old values to delete them, so the key tables need no index besides their primary key.
 *
 * The helpers are SQL functions without STRICT or BEGIN ATOMIC, so that the planner inlines them into the statements
 * that use them; their row counts come from unnest (estimated 10) and constant generate_series bounds: with the
 * default estimate of a thousand rows per set-returning call, the planner would see millions of keys per contact.
 */
const SEARCH_FUNCTIONS = [
  `create or replace function "contact_search_text"(value text) returns text language sql immutable parallel safe
      as $$ select lower(btrim(regexp_replace(value, '\\s+', ' ', 'g'), ' ')) $$;`,
  // The word-start suffixes of a name, in order: "Jean-Luc Picard" gives "jean-luc picard", "luc picard", "picard".
  `create or replace function "contact_name_words_of"(name text) returns table (word text, at bigint) language sql
        immutable parallel safe as $$
      select array_to_string(t.pieces[p.at:], ''), p.at
        from (select regexp_split_to_array(contact_search_text(name), ${WORD_BOUNDARY}) as pieces) t,
             unnest(t.pieces) with ordinality p(piece, at) $$;`,
  `create or replace function "contact_name_matches"(name text, term text) returns boolean language sql immutable
        parallel safe
      as $$ select exists (select 1 from contact_name_words_of(name) w where starts_with(w.word,
        contact_search_text(term))) $$;`,
  // A prefix shared by two words of one name ("Anna Andersen": a, an) is kept once.
  `create or replace function "contact_name_prefixes_of"(name text) returns setof text language sql
        immutable parallel safe as $$
      select distinct left(w.word, n) from contact_name_words_of(name) w, generate_series(1, ${NAME_PREFIX_LENGTH}) n
       where n <= char_length(w.word) $$;`,
  // `shared` counts up to NAME_WORD_LENGTH characters: a longer term is rechecked and its contacts taken once anyway.
  `create or replace function "contact_name_word_keys_of"(name text) returns table (word text, shared smallint)
        language sql immutable parallel safe as $$
      with words as materialized (select * from contact_name_words_of(name))
      select left(w.word, ${NAME_WORD_LENGTH}), coalesce((select max(n) from words e, generate_series(1,
               ${NAME_WORD_LENGTH}) n where e.at < w.at and n <= char_length(w.word) and left(e.word, n) = left(w.word,
               n)), 0)::smallint
        from words w where w.word <> '' $$;`,
  // The least string above every string that starts with `value`, in byte order: its last character plus one
  // (skipping the surrogates, which are not characters).
  `create or replace function "contact_search_next"(value text) returns text language sql immutable parallel safe
      as $$ select case when ascii(right(value, 1)) = 1114111 then value || chr(1114111)
                        else left(value, -1) || chr(ascii(right(value, 1)) + case ascii(right(value, 1)) when 55295
                          then 2049 else 1 end) end $$;`,
  // Without JIT: a bulk insert's key statements are costed as a set function per inserted row, high enough for JIT,
  // whose compilation costs far more than running them.
  `create or replace function "contacts_search_keys_inserted"() returns trigger language plpgsql
        set jit = off as $$
      begin
        ${keysSql('insert', 'inserted_contacts').join('\n        ')}
        return null;
      end $$;`,
  `create or replace function "contacts_search_keys_deleted"() returns trigger language plpgsql
        set jit = off as $$
      begin
        ${keysSql('delete', 'deleted_contacts').join('\n        ')}
        return null;
      end $$;`,
  `create or replace function "contacts_search_keys_updated"() returns trigger language plpgsql as $$
      begin
        ${keysSql('delete', row('old')).join('\n        ')}
        ${keysSql('insert', row('new')).join('\n        ')}
        return null;
      end $$;`,
  `create or replace function "contacts_search_keys_truncated"() returns trigger language plpgsql as $$
      begin
        truncate contact_name_prefixes, contact_name_words;
        return null;
      end $$;`,
];

const SEARCH_TRIGGERS = [
  statementTrigger('contacts_search_keys_insert', 'insert', 'contacts', 'contacts_search_keys_inserted', {
    new: 'inserted_contacts',
  }),
  statementTrigger('contacts_search_keys_delete', 'delete', 'contacts', 'contacts_search_keys_deleted', {
    old: 'deleted_contacts',
  }),
  {
    name: 'contacts_search_keys_update',
    table: 'contacts',
    create: `create trigger "contacts_search_keys_update" after update of "id", "name", "created_at" on "contacts"
      for each row when (old.id is distinct from new.id or old.name is distinct from new.name
        or old.created_at is distinct from new.created_at)
      execute function "contacts_search_keys_updated"();`,
  },
  statementTrigger('contacts_search_keys_truncate', 'truncate', 'contacts', 'contacts_search_keys_truncated'),
];

/**
 * An exact per-channel contact count for contacts/list: `count(*)` over a big channel scans it on every request, a
 * one-row lookup does not. Statement triggers with transition tables keep it exact for every write path in the
 * writing transaction (a rollback rolls the count back too); concurrent inserts into one channel queue on its counter
 * row until commit, which bulk imports can afford. Contacts never move between channels (a trigger refuses it), so
 * updates cannot change the counts. Only existing counters are decremented: when a channel is deleted its counter
 * row may already be gone.
 */
const COUNT_FUNCTIONS = [
  `create or replace function "contacts_count_inserted"() returns trigger language plpgsql as $$
      begin
        insert into channel_contact_counts (channel_id, total)
        select channel_id, count(*) from inserted_contacts group by channel_id order by channel_id
        on conflict (channel_id) do update set total = channel_contact_counts.total + excluded.total;
        return null;
      end $$;`,
  `create or replace function "contacts_count_deleted"() returns trigger language plpgsql as $$
      begin
        update channel_contact_counts c set total = c.total - d.removed
          from (select channel_id, count(*) as removed from deleted_contacts group by channel_id) d
         where c.channel_id = d.channel_id;
        return null;
      end $$;`,
  `create or replace function "contacts_count_truncated"() returns trigger language plpgsql as $$
      begin
        delete from channel_contact_counts;
        return null;
      end $$;`,
  `create or replace function "contacts_keep_channel"() returns trigger language plpgsql as $$
      begin
        raise exception 'a contact cannot move to another channel' using errcode = 'check_violation';
      end $$;`,
];

const COUNT_TRIGGERS = [
  statementTrigger('contacts_count_insert', 'insert', 'contacts', 'contacts_count_inserted', {
    new: 'inserted_contacts',
  }),
  statementTrigger('contacts_count_delete', 'delete', 'contacts', 'contacts_count_deleted', {
    old: 'deleted_contacts',
  }),
  statementTrigger('contacts_count_truncate', 'truncate', 'contacts', 'contacts_count_truncated'),
  {
    name: 'contacts_channel_fixed',
    table: 'contacts',
    create: `create trigger "contacts_channel_fixed" before update of "channel_id" on "contacts" for each row
      when (old.channel_id is distinct from new.channel_id) execute function "contacts_keep_channel"();`,
  },
];

/** The contacts' search keys and counts (see above). */
export const CONTACT_SQL: SqlDefinitions = {
  functions: [...SEARCH_FUNCTIONS, ...COUNT_FUNCTIONS],
  triggers: [...SEARCH_TRIGGERS, ...COUNT_TRIGGERS],
};
