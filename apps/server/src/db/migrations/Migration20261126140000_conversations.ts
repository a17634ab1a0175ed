import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #24, conversations. Messages gain their media, the msgid they quote (`reply_to`) and the automation that
 * sent them; every message belongs to a contact (existing outbound messages get theirs, created by phone when
 * missing). `conversations` holds one row per channel + contact with messages: the newest message, the last activity,
 * the newest inbound message (the 24-hour window) and the unread count. Row triggers on `messages` keep it in the
 * writing transaction, whatever path writes: concurrent inbound messages of one contact queue on its row, so the
 * unread count stays exact.
 */
export class Conversations extends Migration {
  override name = 'Migration20261126140000_conversations';

  override up(): void {
    this.addSql(
      `alter table "messages" add "media" jsonb null, add "reply_to" varchar(200) null, add "automation_id" uuid null;`,
    );
    this.addSql(`drop index "messages_channel_created_index";`);
    this.addSql(
      `create index "messages_channel_recent_index" on "messages" ("channel_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "messages_conversation_index" on "messages" ("channel_id", "contact_id", "created_at" desc, ` +
        `"id" desc);`,
    );

    this.addSql(
      `insert into "contacts" ("channel_id", "phone", "name")
       select distinct m."channel_id", m."to", m."to" from "messages" m
        where m."contact_id" is null and m."to" is not null
       on conflict ("channel_id", "phone") do nothing;`,
    );
    this.addSql(
      `update "messages" m set "contact_id" = c."id" from "contacts" c
        where m."contact_id" is null and c."channel_id" = m."channel_id" and c."phone" = coalesce(m."to", m."from");`,
    );

    this.addSql(
      `create table "conversations" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, ` +
        `"contact_id" uuid not null, "last_message_id" uuid null, "last_activity_at" timestamptz not null, ` +
        `"last_inbound_at" timestamptz null, "unread_count" int not null default 0, "created_at" timestamptz not ` +
        `null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `alter table "conversations" add constraint "conversations_channel_id_contact_id_unique" unique ` +
        `("channel_id", "contact_id");`,
    );
    this.addSql(
      `create index "conversations_channel_recent_index" on "conversations" ("channel_id", "last_activity_at" desc, ` +
        `"contact_id" desc);`,
    );
    this.addSql(
      `create index "conversations_channel_unread_index" on "conversations" ("channel_id", "last_activity_at" desc, ` +
        `"contact_id" desc) where unread_count > 0;`,
    );
    this.addSql(`create index "conversations_contact_id_index" on "conversations" ("contact_id");`);
    this.addSql(`create index "conversations_last_message_id_index" on "conversations" ("last_message_id");`);
    this.addSql(
      `alter table "conversations" add constraint "conversations_channel_id_foreign" foreign key ("channel_id") ` +
        `references "channels" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "conversations" add constraint "conversations_contact_id_foreign" foreign key ("contact_id") ` +
        `references "contacts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "conversations" add constraint "conversations_last_message_id_foreign" foreign key ` +
        `("last_message_id") references "messages" ("id") on delete set null;`,
    );

    // The newest message wins by the listing order (created_at, then id); an inbound message's created_at is when
    // the customer sent it, so a late redelivery never moves the window back (greatest() skips nulls).
    this.addSql(`create function "conversations_message_inserted"() returns trigger language plpgsql as $$
      begin
        insert into conversations as c (channel_id, contact_id, last_message_id, last_activity_at, last_inbound_at,
                                         unread_count)
        values (new.channel_id, new.contact_id, new.id, new.created_at,
                case when new.direction = 'inbound' then new.created_at end,
                case when new.direction = 'inbound' and new.status <> 'read' then 1 else 0 end)
        on conflict (channel_id, contact_id) do update set
          last_message_id = case when c.last_message_id is null
                                   or (excluded.last_activity_at, excluded.last_message_id)
                                      > (c.last_activity_at, c.last_message_id)
                                 then excluded.last_message_id else c.last_message_id end,
          last_activity_at = greatest(c.last_activity_at, excluded.last_activity_at),
          last_inbound_at = greatest(c.last_inbound_at, excluded.last_inbound_at),
          unread_count = c.unread_count + excluded.unread_count,
          updated_at = now();
        return null;
      end $$;`);
    this.addSql(`create function "conversations_message_read"() returns trigger language plpgsql as $$
      begin
        update conversations set
          unread_count = greatest(unread_count + case when new.status = 'read' then -1 else 1 end, 0),
          updated_at = now()
         where channel_id = new.channel_id and contact_id = new.contact_id;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "conversations_message_insert" after insert on "messages" for each row
         when (new.contact_id is not null) execute function "conversations_message_inserted"();`,
    );
    this.addSql(
      `create trigger "conversations_message_status" after update of "status" on "messages" for each row
         when (new.direction = 'inbound' and new.contact_id is not null
               and (old.status = 'read') is distinct from (new.status = 'read'))
         execute function "conversations_message_read"();`,
    );

    this.addSql(
      `insert into "conversations" ("channel_id", "contact_id", "last_message_id", "last_activity_at",
                                    "last_inbound_at", "unread_count")
       select distinct on (m."channel_id", m."contact_id") m."channel_id", m."contact_id", m."id", m."created_at",
              max(m."created_at") filter (where m."direction" = 'inbound')
                over (partition by m."channel_id", m."contact_id"),
              count(*) filter (where m."direction" = 'inbound' and m."status" <> 'read')
                over (partition by m."channel_id", m."contact_id")
         from "messages" m where m."contact_id" is not null
        order by m."channel_id", m."contact_id", m."created_at" desc, m."id" desc;`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists "conversations_message_status" on "messages";`);
    this.addSql(`drop trigger if exists "conversations_message_insert" on "messages";`);
    this.addSql(`drop function if exists "conversations_message_read"(), "conversations_message_inserted"();`);
    this.addSql(`drop table if exists "conversations" cascade;`);
    this.addSql(`drop index "messages_conversation_index";`);
    this.addSql(`drop index "messages_channel_recent_index";`);
    this.addSql(`create index "messages_channel_created_index" on "messages" ("channel_id", "created_at" desc);`);
    this.addSql(`alter table "messages" drop column "media", drop column "reply_to", drop column "automation_id";`);
  }
}
