import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #40: interactive messages (buttons, lists, link buttons, and a customer's tap on one), reactions and
 * locations keep what they carry beside the readable `body`: the history shows what the customer saw or tapped,
 * with its ids. Nullable, so existing rows and every other type take no room.
 */
export class RichMessages extends Migration {
  override name = 'Migration20261206220000_rich_messages';

  override up(): void {
    this.addSql(
      `alter table "messages" add column "interactive" jsonb null, add column "reaction" jsonb null, ` +
        `add column "location" jsonb null;`,
    );
  }

  override down(): void {
    this.addSql(`alter table "messages" drop column "interactive", drop column "reaction", drop column "location";`);
  }
}
