import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #22. `users.session_version`: a Developer Portal session remembers the version it was signed in at and
 * ends once they differ. A trigger bumps it, whatever path writes (the CLI's set-password, a seed, plain SQL), when
 * the password hash changes or `settings:api` (the portal's permission) is taken away; a rehash of the same
 * password at sign-in says so with `switchboard.password_rehash` for its transaction and ends nothing.
 * Platforms: switching `is_active` notifies `api_callers_changed` for each of the platform's users, so every
 * server evicts their cached API-key callers at once (what migration ..._caller_change_notifications does for
 * keys, users and channels).
 */
export class PortalSessionsEnd extends Migration {
  override name = 'Migration20261126112925_portal_sessions_end';

  override up(): void {
    this.addSql(`alter table "users" add "session_version" int not null default 0;`);
    this.addSql(`create function "users_session_version"() returns trigger language plpgsql as $$
      begin
        if (new.password_hash is distinct from old.password_hash
              and coalesce(current_setting('switchboard.password_rehash', true), '') <> 'on')
           or ('settings:api' = any(old.permissions)
               and not coalesce('settings:api' = any(new.permissions), false)) then
          new.session_version := old.session_version + 1;
        end if;
        return new;
      end $$;`);
    this.addSql(
      `create trigger "users_session_version" before update on "users" for each row
         execute function "users_session_version"();`,
    );
    this.addSql(`create function "platform_callers_changed"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('api_callers_changed', u.id::text) from users u where u.platform_id = new.id;
        return null;
      end $$;`);
    this.addSql(`create trigger "platforms_callers_changed" after update of "is_active" on "platforms" for each row
      when (old.is_active is distinct from new.is_active) execute function "platform_callers_changed"();`);
  }

  override down(): void {
    this.addSql(`drop trigger if exists "platforms_callers_changed" on "platforms";`);
    this.addSql(`drop function if exists "platform_callers_changed"();`);
    this.addSql(`drop trigger if exists "users_session_version" on "users";`);
    this.addSql(`drop function if exists "users_session_version"();`);
    this.addSql(`alter table "users" drop column "session_version";`);
  }
}
