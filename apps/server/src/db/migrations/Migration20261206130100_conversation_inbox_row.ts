import { Migration } from '@mikro-orm/migrations';

/** Stands for "no assignee" in the assignee indexes' key, as in conversation_state_counts. */
const NONE = `'00000000-0000-0000-0000-000000000000'::uuid`;

/** The outbox's statuses: a message in one of them has not been sent yet. */
const UNSENT = `('queued', 'scheduled', 'sending')`;

/** What the inbox shows of a conversation's newest message, kept on its row: each column and the message's column. */
export const INBOX_SUMMARY: readonly (readonly [string, string])[] = [
  ['last_message_msgid', 'msgid'],
  ['last_message_direction', 'direction'],
  ['last_message_type', 'type'],
  ['last_message_text', 'body'],
];

/** The upsert's columns beyond the counts: the contact's, then the summary's. */
const inboxColumns = (summary: typeof INBOX_SUMMARY) =>
  `, contact_phone, contact_name, ${summary.map(([column]) => column).join(', ')}`;

/** A column of the newest message: the statement's when it is newer by the listing order (created_at, then id). */
const newest = (column: string, orNone: string) =>
  `${column} = case when ${orNone}(excluded.last_activity_at, excluded.last_message_id)
                          > (c.last_activity_at, c.last_message_id)
                      then excluded.${column} else c.${column} end`;

/**
 * The upsert of the conversations of `rows` (messages), once per statement, as Migration20261201120000 wrote it;
 * with a `summary`, as this migration does, also writing what chat/conversations/list shows: the contact's phone and
 * name (from `contacts`, when the conversation starts) and the summary's columns of the newest message. In key
 * order, so concurrent statements lock alike.
 */
export const upsert = (summary?: typeof INBOX_SUMMARY) => (rows: string) => `
        insert into conversations as c (channel_id, contact_id, last_message_id, last_activity_at, last_inbound_at,
                                        unread_count${summary ? inboxColumns(summary) : ''})
        select distinct on (m.channel_id, m.contact_id) m.channel_id, m.contact_id, m.id, m.created_at,
               max(m.created_at) filter (where m.direction = 'inbound') over conversation,
               (count(*) filter (where m.direction = 'inbound' and m.status <> 'read') over conversation)::int
               ${summary ? `, ct.phone, ct.name, ${summary.map(([, from]) => `m.${from}`).join(', ')}` : ''}
          from ${rows} m ${summary ? 'join contacts ct on ct.id = m.contact_id' : ''}
        window conversation as (partition by m.channel_id, m.contact_id)
         order by m.channel_id, m.contact_id, m.created_at desc, m.id desc
        on conflict (channel_id, contact_id) do update set
          ${(summary ?? []).map(([column]) => `${newest(column, '')},`).join('\n          ')}
          ${newest('last_message_id', summary ? '' : 'c.last_message_id is null or ')},
          last_activity_at = greatest(c.last_activity_at, excluded.last_activity_at),
          last_inbound_at = greatest(c.last_inbound_at, excluded.last_inbound_at),
          unread_count = c.unread_count + excluded.unread_count,
          updated_at = now();`;

/**
 * The messages an update takes out of the outbox, sent (not cancelled): their old and new rows paired by a GROUP BY,
 * which PostgreSQL runs by hashing or sorting, never by comparing every row with every other (a join of the two
 * transition tables is planned once per connection and can turn quadratic: Migration20261206100000). `kept`: more
 * columns a send does not change, carried as they are.
 */
const sentRows = (kept = '') => {
  const columns = `id, channel_id, contact_id, created_at, direction, type${kept}, msgid, body, status`;
  return `(select x.id, x.channel_id, x.contact_id, x.created_at, x.direction, x.type${kept},
                  max(x.msgid) filter (where x.is_new) as msgid, max(x.body) filter (where x.is_new) as body,
                  max(x.status) filter (where x.is_new) as status
             from (select ${columns}, true as is_new
                     from new_rows where contact_id is not null and status not in ${UNSENT} and status <> 'cancelled'
                   union all
                   select ${columns}, false
                     from old_rows where contact_id is not null and status in ${UNSENT}) x
            group by x.id, x.channel_id, x.contact_id, x.created_at, x.direction, x.type${kept.replaceAll(', ', ', x.')}
           having bool_or(x.is_new) and bool_or(not x.is_new))`;
};

/**
 * The two statement triggers' functions on `messages` (Migration20261201120000 made them), around `upsert`: a
 * statement's inserted messages but those waiting in the outbox, and those an update takes out of it.
 */
export const messageTriggers = (upsertOf: (rows: string) => string, kept?: string) => [
  `create or replace function "conversations_messages_inserted"() returns trigger language plpgsql as $$
      begin
        ${upsertOf(`(select * from new_rows where contact_id is not null and status not in ${UNSENT})`)}
        return null;
      end $$;`,
  `create or replace function "conversations_messages_sent"() returns trigger language plpgsql as $$
      begin
        ${upsertOf(sentRows(kept))}
        return null;
      end $$;`,
];

/**
 * Issue #44: chat/conversations/list reads a page off one index of `conversations` and nothing else. Its rows showed
 * the contact's phone and name and the newest message's summary by key lookups into `contacts` and `messages` (two
 * per row, a hundred a page, into tables of over a million rows; docs/benchmarks.md, Conversations): the row now
 * carries them. The statement triggers on `messages` write them in the statement that writes the message; a change
 * of a contact's name (or phone) is copied to its conversation by a row trigger on `contacts`, in the same
 * transaction. `last_message_id` stays as the tie-break of the newest message, without its foreign key (a check and
 * a key-share lock on the message at every message written, and an index): messages are never deleted while their
 * conversation exists (a contact's deletion takes its conversation; a channel's, both).
 *
 * The filters get indexes whose keys match them: the assignee's key is `coalesce(assignee_id, NONE)` (one index
 * serves a user's conversations and the unassigned ones, which `assignee_id is null` could not read in listing
 * order), and an assignee with one status has an index of its own (an agent's open conversations among thousands
 * resolved read 50 entries, not all of that agent's).
 */
export class ConversationInboxRow extends Migration {
  override name = 'Migration20261206130100_conversation_inbox_row';

  override up(): void {
    // Every conversation is rewritten once (and its indexes rebuilt): longer than a request's statement timeout on a
    // large inbox. Local to the migrations' transaction.
    this.addSql(`set local statement_timeout = 0;`);
    this.addSql(
      `alter table "conversations" add column "contact_phone" varchar(20) null, ` +
        `add column "contact_name" varchar(200) null, add column "last_message_msgid" varchar(200) null, ` +
        `add column "last_message_direction" text null, add column "last_message_type" text null, ` +
        `add column "last_message_text" text null;`,
    );
    this.addSql(`alter table "conversations" drop constraint "conversations_last_message_id_foreign";`);
    this.addSql(`drop index "conversations_last_message_id_index";`);
    this.backfill();
    this.addSql(
      `alter table "conversations" alter column "contact_phone" set not null, ` +
        `alter column "contact_name" set not null, alter column "last_message_id" set not null, ` +
        `alter column "last_message_msgid" set not null, alter column "last_message_direction" set not null, ` +
        `alter column "last_message_type" set not null;`,
    );
    for (const sql of messageTriggers(upsert(INBOX_SUMMARY))) this.addSql(sql);
    this.addSql(`create function "conversations_contact_changed"() returns trigger language plpgsql as $$
      begin
        update conversations set contact_phone = new.phone, contact_name = new.name where contact_id = new.id;
        return null;
      end $$;`);
    this.addSql(`create trigger "conversations_contact_changed" after update of "name", "phone" on "contacts"
      for each row when (old.name is distinct from new.name or old.phone is distinct from new.phone)
      execute function "conversations_contact_changed"();`);

    this.addSql(`drop index "conversations_channel_assignee_index";`);
    this.addSql(
      `create index "conversations_channel_assignee_index" on "conversations" ("channel_id", ` +
        `(coalesce("assignee_id", ${NONE})), "last_activity_at" desc, "contact_id" desc);`,
    );
    this.addSql(
      `create index "conversations_channel_assignee_status_index" on "conversations" ("channel_id", ` +
        `(coalesce("assignee_id", ${NONE})), "status", "last_activity_at" desc, "contact_id" desc);`,
    );
  }

  /**
   * The new columns of every conversation: from its newest message when that message is gone (none is deleted
   * through the API, but the foreign key allowed it); a conversation left without any message is one no longer
   * listed (the inbox joined its message) and goes, its counts with it.
   */
  private backfill(): void {
    this.addSql(
      `update "conversations" c set "last_message_id" = (
         select m."id" from "messages" m where m."channel_id" = c."channel_id" and m."contact_id" = c."contact_id"
            and m."status" not in ('queued', 'scheduled', 'sending', 'cancelled')
          order by m."created_at" desc, m."id" desc limit 1)
        where not exists (select 1 from "messages" m where m."id" = c."last_message_id");`,
    );
    this.addSql(`delete from "conversations" where "last_message_id" is null;`);
    this.addSql(
      `update "conversations" c set "contact_phone" = ct."phone", "contact_name" = ct."name",
              "last_message_msgid" = m."msgid", "last_message_direction" = m."direction",
              "last_message_type" = m."type", "last_message_text" = m."body"
         from "contacts" ct, "messages" m where ct."id" = c."contact_id" and m."id" = c."last_message_id";`,
    );
  }

  override down(): void {
    this.addSql(`drop index "conversations_channel_assignee_status_index";`);
    this.addSql(`drop index "conversations_channel_assignee_index";`);
    this.addSql(
      `create index "conversations_channel_assignee_index" on "conversations" ("channel_id", "assignee_id", ` +
        `"last_activity_at" desc, "contact_id" desc);`,
    );
    this.addSql(`drop trigger "conversations_contact_changed" on "contacts";`);
    this.addSql(`drop function "conversations_contact_changed"();`);
    for (const sql of messageTriggers(upsert())) this.addSql(sql);
    this.addSql(`alter table "conversations" alter column "last_message_id" drop not null;`);
    this.addSql(`create index "conversations_last_message_id_index" on "conversations" ("last_message_id");`);
    this.addSql(
      `alter table "conversations" add constraint "conversations_last_message_id_foreign" foreign key ` +
        `("last_message_id") references "messages" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "conversations" drop column "contact_phone", drop column "contact_name", ` +
        `drop column "last_message_msgid", drop column "last_message_direction", drop column "last_message_type", ` +
        `drop column "last_message_text";`,
    );
  }
}
