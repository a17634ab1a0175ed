import { Migration } from '@mikro-orm/migrations';
import { INBOX_SUMMARY, messageTriggers, upsert } from './Migration20261206130100_conversation_inbox_row.ts';

/** The inbox's summary with the newest message's `interactive` (a button or list sent, or a customer's tap on one). */
const WITH_INTERACTIVE = [...INBOX_SUMMARY, ['last_message_interactive', 'interactive']] as const;

/**
 * Issue #40: the inbox's lastMessage shows a customer's tap (a reply button's or a list row's id and title) as the
 * message does, so an agent's inbox tells which option was chosen without opening the conversation. The statement
 * triggers write it with the rest of the summary; a send leaves a message's `interactive` as it was queued.
 */
export class InboxLastInteractive extends Migration {
  override name = 'Migration20261206230000_inbox_last_interactive';

  override up(): void {
    this.addSql(`set local statement_timeout = 0;`);
    this.addSql(`alter table "conversations" add column "last_message_interactive" jsonb null;`);
    this.addSql(
      `update "conversations" c set "last_message_interactive" = m."interactive"
         from "messages" m where m."id" = c."last_message_id" and m."interactive" is not null;`,
    );
    for (const sql of messageTriggers(upsert(WITH_INTERACTIVE), ', interactive')) this.addSql(sql);
  }

  override down(): void {
    for (const sql of messageTriggers(upsert(INBOX_SUMMARY))) this.addSql(sql);
    this.addSql(`alter table "conversations" drop column "last_message_interactive";`);
  }
}
