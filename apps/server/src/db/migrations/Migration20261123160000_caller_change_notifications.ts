import { Migration } from '@mikro-orm/migrations';

/**
 * Every server caches the callers its API keys resolve to (http/caller-cache.ts) and evicts them when this
 * notifies `api_callers_changed` with the user's id. Triggers rather than calls in the services, so no write path
 * (services, CLI, seed loader, portal, hand-written SQL, FK cascades) can forget it; pg_notify is transactional,
 * so the notice goes out exactly when the change commits, and not at all on rollback. Watched: what the key
 * lookup (modules/api-keys/api-key.queries.ts) reads. api_keys only when the key's identity or revocation changes:
 * last_used_at is written once a minute per key and must not evict. users on any change (role, permissions,
 * platform access, name, email, ...). channel_users on any row change. channels when the columns the lookup
 * filters and orders channels by change. Deletes of users and channels reach api_keys and channel_users through
 * FK cascades, whose row triggers fire. TRUNCATE notifies '' ("everything"). Creating a key needs no notice.
 */
export class CallerChangeNotifications extends Migration {
  override name = 'Migration20261123160000_caller_change_notifications';

  override up(): void {
    // TG_ARGV[0] names the column holding the user id; old and new both count (an update may move a row).
    this.addSql(`create function "callers_changed"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then perform pg_notify('api_callers_changed', to_jsonb(old) ->> tg_argv[0]); end if;
        if tg_op <> 'DELETE' then perform pg_notify('api_callers_changed', to_jsonb(new) ->> tg_argv[0]); end if;
        return null;
      end $$;`);
    this.addSql(`create function "channel_callers_changed"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('api_callers_changed', cu.user_id::text) from channel_users cu where cu.channel_id in
          (old.id, new.id);
        return null;
      end $$;`);
    this.addSql(`create function "all_callers_changed"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('api_callers_changed', '');
        return null;
      end $$;`);

    this.addSql(`create trigger "api_keys_callers_changed" after update of "user_id", "prefix", "key_hash", "revoked_at"
        on "api_keys" for each row
      when ((old.user_id, old.prefix, old.key_hash, old.revoked_at) is distinct from (new.user_id, new.prefix,
        new.key_hash, new.revoked_at))
      execute function "callers_changed"('user_id');`);
    this.addSql(
      `create trigger "api_keys_callers_deleted" after delete on "api_keys" for each row execute function ` +
        `"callers_changed"('user_id');`,
    );
    this.addSql(
      `create trigger "users_callers_changed" after update on "users" for each row when (old.* is distinct from ` +
        `new.*) execute function "callers_changed"('id');`,
    );
    this.addSql(
      `create trigger "users_callers_deleted" after delete on "users" for each row execute function ` +
        `"callers_changed"('id');`,
    );
    this.addSql(
      `create trigger "channel_users_callers_changed" after insert or update or delete on "channel_users" for each ` +
        `row execute function "callers_changed"('user_id');`,
    );
    this.addSql(`create trigger "channels_callers_changed" after update of "id", "platform_id", "created_at" on
        "channels" for each row
      when ((old.id, old.platform_id, old.created_at) is distinct from (new.id, new.platform_id, new.created_at))
      execute function "channel_callers_changed"();`);
    for (const table of ['api_keys', 'users', 'channel_users']) {
      this.addSql(
        `create trigger "${table}_callers_truncated" after truncate on "${table}" for each statement execute ` +
          `function "all_callers_changed"();`,
      );
    }
  }

  override down(): void {
    for (const table of ['api_keys', 'users', 'channel_users'])
      this.addSql(`drop trigger if exists "${table}_callers_truncated" on "${table}";`);
    this.addSql(`drop trigger if exists "channels_callers_changed" on "channels";`);
    this.addSql(`drop trigger if exists "channel_users_callers_changed" on "channel_users";`);
    this.addSql(`drop trigger if exists "users_callers_deleted" on "users";`);
    this.addSql(`drop trigger if exists "users_callers_changed" on "users";`);
    this.addSql(`drop trigger if exists "api_keys_callers_deleted" on "api_keys";`);
    this.addSql(`drop trigger if exists "api_keys_callers_changed" on "api_keys";`);
    this.addSql(`drop function if exists "all_callers_changed"(), "channel_callers_changed"(), "callers_changed"();`);
  }
}
