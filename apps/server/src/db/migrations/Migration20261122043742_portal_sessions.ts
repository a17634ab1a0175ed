import { Migration } from '@mikro-orm/migrations';

/** Developer Portal sessions (connect-pg-simple's layout, with timestamptz and jsonb). */
export class PortalSessions extends Migration {
  override name = 'Migration20261122043742_portal_sessions';

  override up(): void {
    this.addSql(
      `create table "portal_sessions" ("sid" varchar(255) not null, "sess" jsonb not null, "expire" timestamptz not ` +
        `null, primary key ("sid"));`,
    );
    this.addSql(`create index "portal_sessions_expire_index" on "portal_sessions" ("expire");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "portal_sessions";`);
  }
}
