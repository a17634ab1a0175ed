import type { SqlDefinitions } from '../../kit/sql-definitions.ts';

/**
 * `users.session_version`: a Developer Portal session remembers the version it was signed in at and ends once they
 * differ. A trigger bumps it, whatever path writes (the CLI's set-password, a seed, plain SQL), when the password
 * hash changes or `settings:api` (the portal's permission) is taken away; a rehash of the same password at sign-in
 * says so with `switchboard.password_rehash` for its transaction and ends nothing.
 */
export const PORTAL_SESSION_SQL: SqlDefinitions = {
  functions: [
    `create or replace function "users_session_version"() returns trigger language plpgsql as $$
      begin
        if (new.password_hash is distinct from old.password_hash
              and coalesce(current_setting('switchboard.password_rehash', true), '') <> 'on')
           or ('settings:api' = any(old.permissions)
               and not coalesce('settings:api' = any(new.permissions), false)) then
          new.session_version := old.session_version + 1;
        end if;
        return new;
      end $$;`,
  ],
  triggers: [
    {
      name: 'users_session_version',
      table: 'users',
      create: `create trigger "users_session_version" before update on "users" for each row
         execute function "users_session_version"();`,
    },
  ],
};
