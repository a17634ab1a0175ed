import { Migration } from '@mikro-orm/migrations';

/** Opens of each media link, counted across instances (at most 30 per link), and the file as the link found it. */
export class MediaLinkOpens extends Migration {
  override name = 'Migration20261128110100_media_link_opens';

  override up(): void {
    this.addSql(
      `create table "media_link_opens" ("link" varchar(64) not null, "opens" int not null default 0, ` +
        `"file" jsonb null, "expires_at" timestamptz not null, ` +
        `constraint "media_link_opens_pkey" primary key ("link"));`,
    );
    this.addSql(`create index "media_link_opens_expires_at_index" on "media_link_opens" ("expires_at");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "media_link_opens";`);
  }
}
