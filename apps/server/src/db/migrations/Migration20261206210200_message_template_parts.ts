import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #41: a queued or scheduled template send keeps its header and button values (a media header's link, a URL
 * button's suffix, …), which the send pipeline hands the provider at its turn; a broadcast keeps them as given.
 */
export class MessageTemplateParts extends Migration {
  override name = 'Migration20261206210200_message_template_parts';

  override up(): void {
    this.addSql(`alter table "messages" add column "template_parts" jsonb null;`);
    this.addSql(`alter table "broadcasts" add column "template_parts" jsonb null;`);
  }

  override down(): void {
    this.addSql(`alter table "broadcasts" drop column "template_parts";`);
    this.addSql(`alter table "messages" drop column "template_parts";`);
  }
}
