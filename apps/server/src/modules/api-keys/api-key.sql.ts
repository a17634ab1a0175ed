import type { SqlDefinitions, SqlTrigger } from '../../kit/sql-definitions.ts';

/** The tables whose truncation evicts every cached caller. */
const TRUNCATED = ['api_keys', 'users', 'channel_users'];

/**
 * Every server caches the callers its API keys resolve to (http/caller-cache.ts) and evicts them when these notify
 * `api_callers_changed` with the user's id. Triggers rather than calls in the services, so that no write path
 * (services, CLI, seed loader, portal, hand-written SQL, FK cascades) can forget it; pg_notify is transactional, so
 * the notice goes out exactly when the change commits, and not at all on rollback. Watched: what the key lookup
 * (api-key.queries.ts) reads. api_keys only when the key's identity or revocation changes: last_used_at is written
 * once a minute per key and must not evict. users on any change; channel_users on any row change; channels when the
 * columns the lookup filters and orders channels by change; a platform switched on or off, for each of its users.
 * Deletes of users and channels reach api_keys and channel_users through FK cascades, whose row triggers fire.
 * TRUNCATE notifies '' ("everything"). Creating a key needs no notice.
 */
const FUNCTIONS = [
  // TG_ARGV[0] names the column holding the user id; old and new both count (an update may move a row).
  `create or replace function "callers_changed"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then perform pg_notify('api_callers_changed', to_jsonb(old) ->> tg_argv[0]); end if;
        if tg_op <> 'DELETE' then perform pg_notify('api_callers_changed', to_jsonb(new) ->> tg_argv[0]); end if;
        return null;
      end $$;`,
  `create or replace function "channel_callers_changed"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('api_callers_changed', cu.user_id::text) from channel_users cu where cu.channel_id in
          (old.id, new.id);
        return null;
      end $$;`,
  `create or replace function "all_callers_changed"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('api_callers_changed', '');
        return null;
      end $$;`,
  `create or replace function "platform_callers_changed"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('api_callers_changed', u.id::text) from users u where u.platform_id = new.id;
        return null;
      end $$;`,
];

const TRIGGERS: SqlTrigger[] = [
  {
    name: 'api_keys_callers_changed',
    table: 'api_keys',
    create: `create trigger "api_keys_callers_changed" after update of "user_id", "prefix", "key_hash", "revoked_at"
        on "api_keys" for each row
      when ((old.user_id, old.prefix, old.key_hash, old.revoked_at) is distinct from (new.user_id, new.prefix,
        new.key_hash, new.revoked_at))
      execute function "callers_changed"('user_id');`,
  },
  {
    name: 'api_keys_callers_deleted',
    table: 'api_keys',
    create: `create trigger "api_keys_callers_deleted" after delete on "api_keys" for each row
      execute function "callers_changed"('user_id');`,
  },
  {
    name: 'users_callers_changed',
    table: 'users',
    create: `create trigger "users_callers_changed" after update on "users" for each row
      when (old.* is distinct from new.*) execute function "callers_changed"('id');`,
  },
  {
    name: 'users_callers_deleted',
    table: 'users',
    create: `create trigger "users_callers_deleted" after delete on "users" for each row
      execute function "callers_changed"('id');`,
  },
  {
    name: 'channel_users_callers_changed',
    table: 'channel_users',
    create: `create trigger "channel_users_callers_changed" after insert or update or delete on "channel_users"
      for each row execute function "callers_changed"('user_id');`,
  },
  {
    name: 'channels_callers_changed',
    table: 'channels',
    create: `create trigger "channels_callers_changed" after update of "id", "platform_id", "created_at" on
        "channels" for each row
      when ((old.id, old.platform_id, old.created_at) is distinct from (new.id, new.platform_id, new.created_at))
      execute function "channel_callers_changed"();`,
  },
  {
    name: 'platforms_callers_changed',
    table: 'platforms',
    create: `create trigger "platforms_callers_changed" after update of "is_active" on "platforms" for each row
      when (old.is_active is distinct from new.is_active) execute function "platform_callers_changed"();`,
  },
  ...TRUNCATED.map((table) => ({
    name: `${table}_callers_truncated`,
    table,
    create: `create trigger "${table}_callers_truncated" after truncate on "${table}" for each statement
      execute function "all_callers_changed"();`,
  })),
];

/** The notices that evict cached API-key callers (see above). */
export const API_KEY_SQL: SqlDefinitions = { functions: FUNCTIONS, triggers: TRIGGERS };
