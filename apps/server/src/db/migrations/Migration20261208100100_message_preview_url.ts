import { Migration } from '@mikro-orm/migrations';

/** Issue #39: a session send is queued before its provider call, so its link preview is kept with it. */
export class MessagePreviewUrl extends Migration {
  override name = 'Migration20261208100100_message_preview_url';

  override up(): void {
    this.addSql(`alter table "messages" add column "preview_url" boolean not null default false;`);
  }

  override down(): void {
    this.addSql(`alter table "messages" drop column "preview_url";`);
  }
}
