import { Migration } from '@mikro-orm/migrations';

/**
 * An exact per-channel count of conversations, and of those with unread messages, for chat/conversations/list's
 * `pagination.total`: counting 100,000 conversations per request is what bounded the inbox (docs/benchmarks.md). A
 * row trigger on `conversations` keeps it in the writing transaction; a new conversation or one whose unread count
 * leaves or reaches zero queues on its channel's row until commit (the conversation's row is always locked first,
 * so two writers never wait on each other in opposite orders).
 */
export class ConversationCounts extends Migration {
  override name = 'Migration20261126150000_conversation_counts';

  override up(): void {
    this.addSql(
      `create table "channel_conversation_counts" ("channel_id" uuid not null, "total" int not null default 0, ` +
        `"unread" int not null default 0, primary key ("channel_id"));`,
    );
    this.addSql(
      `alter table "channel_conversation_counts" add constraint "channel_conversation_counts_channel_id_foreign" ` +
        `foreign key ("channel_id") references "channels" ("id") on delete cascade;`,
    );
    // Only existing counters are decremented: when a channel is deleted its counter row may already be gone.
    this.addSql(`create function "conversations_count_changed"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into channel_conversation_counts as n (channel_id, total, unread)
          values (new.channel_id, 1, (new.unread_count > 0)::int)
          on conflict (channel_id) do update set total = n.total + 1, unread = n.unread + excluded.unread;
        elsif tg_op = 'DELETE' then
          update channel_conversation_counts
             set total = total - 1, unread = unread - (old.unread_count > 0)::int
           where channel_id = old.channel_id;
        else
          update channel_conversation_counts
             set unread = unread + (new.unread_count > 0)::int - (old.unread_count > 0)::int
           where channel_id = new.channel_id;
        end if;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "conversations_count_insert_delete" after insert or delete on "conversations" for each row
         execute function "conversations_count_changed"();`,
    );
    this.addSql(
      `create trigger "conversations_count_unread" after update of "unread_count" on "conversations" for each row
         when ((old.unread_count > 0) is distinct from (new.unread_count > 0))
         execute function "conversations_count_changed"();`,
    );
    this.addSql(
      `insert into "channel_conversation_counts" ("channel_id", "total", "unread")
       select "channel_id", count(*), count(*) filter (where "unread_count" > 0) from "conversations"
        group by "channel_id";`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists "conversations_count_unread" on "conversations";`);
    this.addSql(`drop trigger if exists "conversations_count_insert_delete" on "conversations";`);
    this.addSql(`drop function if exists "conversations_count_changed"();`);
    this.addSql(`drop table if exists "channel_conversation_counts" cascade;`);
  }
}
