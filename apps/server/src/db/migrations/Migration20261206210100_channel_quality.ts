import { Migration } from '@mikro-orm/migrations';

/** Issue #41: a channel shows Meta's quality rating of its number and its messaging tier. */
export class ChannelQuality extends Migration {
  override name = 'Migration20261206210100_channel_quality';

  override up(): void {
    this.addSql(
      `alter table "channels" add column "quality" text not null default 'unknown', ` +
        `add column "messaging_limit" varchar(40) null;`,
    );
    this.addSql(
      `alter table "channels" add constraint "channels_quality_check" check ("quality" in ('green', 'yellow', ` +
        `'red', 'unknown'));`,
    );
  }

  override down(): void {
    this.addSql(`alter table "channels" drop constraint "channels_quality_check";`);
    this.addSql(`alter table "channels" drop column "quality", drop column "messaging_limit";`);
  }
}
