import { Migration } from '@mikro-orm/migrations';

export class InitialSchema extends Migration {
  override name = 'Migration20261122042111_initial';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "outbound_emails" ("id" uuid not null default gen_random_uuid(), "dedupe_key" varchar(200) not ` +
        `null, "to" varchar(320) not null, "subject" varchar(300) not null, "text" text not null, "status" text not ` +
        `null default 'pending', "transport" varchar(20) null, "provider_message_id" varchar(300) null, "attempts" ` +
        `int ` +
        `not null default 0, "last_error" text null, "sent_at" timestamptz null, "created_at" timestamptz not null ` +
        `default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `alter table "outbound_emails" add constraint "outbound_emails_dedupe_key_unique" unique ("dedupe_key");`,
    );

    this.addSql(
      `create table "platforms" ("id" uuid not null default gen_random_uuid(), "name" varchar(200) not null, ` +
        `"domain" varchar(253) not null, "is_active" boolean not null default true, "created_at" timestamptz not ` +
        `null ` +
        `default now(), primary key ("id"));`,
    );
    this.addSql(`alter table "platforms" add constraint "platforms_domain_unique" unique ("domain");`);

    this.addSql(
      `create table "plans" ("id" uuid not null default gen_random_uuid(), "platform_id" uuid not null, "name" ` +
        `varchar(200) not null, "item_type" text not null, "prices" jsonb not null, "currency" varchar(3) not null ` +
        `default 'USD', "is_active" boolean not null default true, "created_at" timestamptz not null default now(), ` +
        `primary key ("id"));`,
    );
    this.addSql(`create index "plans_platform_id_item_type_index" on "plans" ("platform_id", "item_type");`);

    this.addSql(
      `create table "channels" ("id" uuid not null default gen_random_uuid(), "platform_id" uuid not null, "name" ` +
        `varchar(200) not null, "phone" varchar(20) not null, "status" text not null default 'active', "provider" ` +
        `varchar(40) not null default 'sandbox', "created_at" timestamptz not null default now(), primary key ("id"));`,
    );

    this.addSql(
      `create table "messages" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, "msgid" ` +
        `varchar(200) not null, "direction" text not null, "type" text not null, "status" text not null, "to" ` +
        `varchar(20) not null, "template_name" varchar(200) null, "language" varchar(20) null, "variables" jsonb ` +
        `null, ` +
        `"provider" varchar(40) not null default 'sandbox', "created_at" timestamptz not null default now(), ` +
        `"updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(`alter table "messages" add constraint "messages_msgid_unique" unique ("msgid");`);

    this.addSql(
      `create table "labels" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, "name" ` +
        `varchar(100) not null, "description" varchar(500) null, "color" varchar(7) null, "sort_order" int not null ` +
        `default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default ` +
        `now(), ` +
        `primary key ("id"));`,
    );
    this.addSql(`create index "labels_channel_order_index" on "labels" ("channel_id", "sort_order", "name");`);
    this.addSql(`alter table "labels" add constraint "labels_channel_id_name_unique" unique ("channel_id", "name");`);

    this.addSql(
      `create table "custom_fields" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, ` +
        `"name" varchar(100) not null, "type" text not null, "is_required" boolean not null default false, "options" ` +
        `jsonb null, "display_order" int not null default 0, "created_at" timestamptz not null default now(), ` +
        `primary ` +
        `key ("id"));`,
    );
    this.addSql(
      `alter table "custom_fields" add constraint "custom_fields_channel_id_name_unique" unique ("channel_id", ` +
        `"name");`,
    );

    this.addSql(
      `create table "contacts" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, "name" ` +
        `varchar(200) not null, "phone" varchar(20) not null, "email" varchar(320) null, "status" text not null ` +
        `default 'active', "custom_fields" jsonb not null default '{}', "created_at" timestamptz not null default ` +
        `now(), "updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `alter table "contacts" add constraint "contacts_channel_id_phone_unique" unique ("channel_id", "phone");`,
    );

    this.addSql(
      `create table "contact_labels" ("contact_id" uuid not null, "label_id" uuid not null, primary key ` +
        `("contact_id", "label_id"));`,
    );

    this.addSql(
      `create table "automations" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, "name" ` +
        `varchar(200) not null, "status" text not null default 'active', "execution_count" int not null default 0, ` +
        `"created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `create index "automations_channel_id_created_at_index" on "automations" ("channel_id", "created_at");`,
    );

    this.addSql(
      `create table "templates" ("id" uuid not null default gen_random_uuid(), "channel_id" uuid not null, "name" ` +
        `varchar(200) not null, "category" text not null, "language" varchar(20) not null, "status" text not null, ` +
        `"body" text not null, "variable_count" int not null default 0, "created_at" timestamptz not null default ` +
        `now(), primary key ("id"));`,
    );
    this.addSql(
      `alter table "templates" add constraint "templates_channel_id_name_language_unique" unique ("channel_id", ` +
        `"name", "language");`,
    );

    this.addSql(
      `create table "users" ("id" uuid not null default gen_random_uuid(), "platform_id" uuid not null, "email" ` +
        `varchar(320) not null, "name" varchar(200) not null, "role" text not null default 'member', ` +
        `"platform_access" ` +
        `boolean not null default false, "permissions" text[] not null default '{}', "password_hash" varchar(255) ` +
        `null, "created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_platform_id_email_unique" unique ("platform_id", "email");`);

    this.addSql(
      `create table "transactions" ("id" uuid not null default gen_random_uuid(), "platform_id" uuid not null, ` +
        `"user_id" uuid not null, "plan_id" uuid not null, "billing_cycle" text not null, "quantity" int not null, ` +
        `"amount" numeric(12,2) not null, "currency" varchar(3) not null, "status" text not null, "created_at" ` +
        `timestamptz not null default now(), primary key ("id"));`,
    );

    this.addSql(
      `create table "tickets" ("id" uuid not null default gen_random_uuid(), "platform_id" uuid not null, "short_id" ` +
        `varchar(16) not null, "owner_id" uuid not null, "title" varchar(200) not null, "description" text not null, ` +
        `"status" text not null default 'open', "priority" text not null default 'medium', "assigned_to_id" uuid ` +
        `null, ` +
        `"assigned_to_name" varchar(200) null, "created_at" timestamptz not null default now(), "updated_at" ` +
        `timestamptz not null default now(), "closed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "tickets" add constraint "tickets_platform_id_short_id_unique" unique ("platform_id", "short_id");`,
    );

    this.addSql(
      `create table "ticket_messages" ("id" uuid not null default gen_random_uuid(), "ticket_id" uuid not null, ` +
        `"author_id" uuid null, "message" text not null, "sender_role" text not null, "is_internal" boolean not null ` +
        `default false, "created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `create index "ticket_messages_ticket_id_created_at_index" on "ticket_messages" ("ticket_id", "created_at");`,
    );

    this.addSql(
      `create table "subscriptions" ("id" uuid not null default gen_random_uuid(), "user_id" uuid not null, ` +
        `"plan_id" uuid not null, "status" text not null default 'active', "billing_cycle" text not null default ` +
        `'monthly', "created_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(`create index "subscriptions_user_id_status_index" on "subscriptions" ("user_id", "status");`);

    this.addSql(
      `create table "channel_users" ("channel_id" uuid not null, "user_id" uuid not null, primary key ("channel_id", ` +
        `"user_id"));`,
    );

    this.addSql(
      `create table "api_keys" ("id" uuid not null default gen_random_uuid(), "user_id" uuid not null, "name" ` +
        `varchar(100) not null, "prefix" varchar(32) not null, "key_hash" varchar(64) not null, "created_at" ` +
        `timestamptz not null default now(), "last_used_at" timestamptz null, "revoked_at" timestamptz null, primary ` +
        `key ("id"));`,
    );
    this.addSql(`alter table "api_keys" add constraint "api_keys_prefix_unique" unique ("prefix");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);

    this.addSql(
      `create table "user_addons" ("id" uuid not null default gen_random_uuid(), "user_id" uuid not null, "plan_id" ` +
        `uuid not null, "transaction_id" uuid not null, "billing_cycle" text not null, "quantity" int not null, ` +
        `"status" text not null default 'active', "created_at" timestamptz not null default now(), primary key ` +
        `("id"));`,
    );

    this.addSql(
      `create table "webhook_endpoints" ("id" uuid not null default gen_random_uuid(), "platform_id" uuid not null, ` +
        `"url" varchar(2000) not null, "secret" varchar(200) not null, "events" text[] not null default '{}', ` +
        `"is_active" boolean not null default true, "created_at" timestamptz not null default now(), primary key ` +
        `("id"));`,
    );

    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null default gen_random_uuid(), "endpoint_id" uuid not null, ` +
        `"webhook_id" varchar(64) not null, "event_type" varchar(100) not null, "payload" jsonb not null, "status" ` +
        `text not null default 'pending', "attempts" int not null default 0, "last_status_code" int null, ` +
        `"last_error" ` +
        `text null, "next_attempt_at" timestamptz null, "delivered_at" timestamptz null, "created_at" timestamptz ` +
        `not ` +
        `null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_unique" unique ("webhook_id");`,
    );

    this.addSql(
      `alter table "outbound_emails" add constraint "outbound_emails_status_check" check ("status" in ('pending', ` +
        `'sent', 'failed'));`,
    );

    this.addSql(
      `alter table "plans" add constraint "plans_platform_id_foreign" foreign key ("platform_id") references ` +
        `"platforms" ("id") on delete cascade;`,
    );
    this.addSql(`alter table "plans" add constraint "plans_item_type_check" check ("item_type" in ('plan', 'addon'));`);

    this.addSql(
      `alter table "channels" add constraint "channels_platform_id_foreign" foreign key ("platform_id") references ` +
        `"platforms" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "channels" add constraint "channels_status_check" check ("status" in ('active', 'disconnected'));`,
    );

    this.addSql(
      `alter table "messages" add constraint "messages_channel_id_foreign" foreign key ("channel_id") references ` +
        `"channels" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "messages" add constraint "messages_direction_check" check ("direction" in ('outbound', ` +
        `'inbound'));`,
    );
    this.addSql(
      `alter table "messages" add constraint "messages_type_check" check ("type" in ('text', 'template', 'image', ` +
        `'document', 'audio', 'video', 'location', 'interactive'));`,
    );
    this.addSql(
      `alter table "messages" add constraint "messages_status_check" check ("status" in ('accepted', 'sent', ` +
        `'delivered', 'read', 'failed'));`,
    );

    this.addSql(
      `alter table "labels" add constraint "labels_channel_id_foreign" foreign key ("channel_id") references ` +
        `"channels" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "custom_fields" add constraint "custom_fields_channel_id_foreign" foreign key ("channel_id") ` +
        `references "channels" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "custom_fields" add constraint "custom_fields_type_check" check ("type" in ('text', 'number', ` +
        `'date', 'boolean', 'select'));`,
    );

    this.addSql(
      `alter table "contacts" add constraint "contacts_channel_id_foreign" foreign key ("channel_id") references ` +
        `"channels" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "contacts" add constraint "contacts_status_check" check ("status" in ('active', 'blocked', ` +
        `'unsubscribed'));`,
    );

    this.addSql(
      `alter table "contact_labels" add constraint "contact_labels_contact_id_foreign" foreign key ("contact_id") ` +
        `references "contacts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "contact_labels" add constraint "contact_labels_label_id_foreign" foreign key ("label_id") ` +
        `references "labels" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "automations" add constraint "automations_channel_id_foreign" foreign key ("channel_id") ` +
        `references "channels" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "automations" add constraint "automations_status_check" check ("status" in ('active', 'paused', ` +
        `'draft'));`,
    );

    this.addSql(
      `alter table "templates" add constraint "templates_channel_id_foreign" foreign key ("channel_id") references ` +
        `"channels" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "templates" add constraint "templates_category_check" check ("category" in ('MARKETING', ` +
        `'UTILITY', 'AUTHENTICATION'));`,
    );
    this.addSql(
      `alter table "templates" add constraint "templates_status_check" check ("status" in ('approved', 'pending', ` +
        `'rejected'));`,
    );

    this.addSql(
      `alter table "users" add constraint "users_platform_id_foreign" foreign key ("platform_id") references ` +
        `"platforms" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "users" add constraint "users_role_check" check ("role" in ('owner', 'admin', 'member'));`,
    );

    this.addSql(
      `alter table "transactions" add constraint "transactions_platform_id_foreign" foreign key ("platform_id") ` +
        `references "platforms" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "transactions" add constraint "transactions_user_id_foreign" foreign key ("user_id") references ` +
        `"users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "transactions" add constraint "transactions_plan_id_foreign" foreign key ("plan_id") references ` +
        `"plans" ("id");`,
    );
    this.addSql(
      `alter table "transactions" add constraint "transactions_billing_cycle_check" check ("billing_cycle" in ` +
        `('monthly', 'quarterly', 'annual', 'onetime'));`,
    );
    this.addSql(
      `alter table "transactions" add constraint "transactions_status_check" check ("status" in ('pending', ` +
        `'completed', 'failed', 'refunded'));`,
    );

    this.addSql(
      `alter table "tickets" add constraint "tickets_platform_id_foreign" foreign key ("platform_id") references ` +
        `"platforms" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "tickets" add constraint "tickets_owner_id_foreign" foreign key ("owner_id") references "users" ` +
        `("id");`,
    );
    this.addSql(
      `alter table "tickets" add constraint "tickets_assigned_to_id_foreign" foreign key ("assigned_to_id") ` +
        `references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "tickets" add constraint "tickets_status_check" check ("status" in ('open', 'in_progress', ` +
        `'resolved', 'closed'));`,
    );
    this.addSql(
      `alter table "tickets" add constraint "tickets_priority_check" check ("priority" in ('low', 'medium', 'high', ` +
        `'urgent'));`,
    );

    this.addSql(
      `alter table "ticket_messages" add constraint "ticket_messages_ticket_id_foreign" foreign key ("ticket_id") ` +
        `references "tickets" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "ticket_messages" add constraint "ticket_messages_author_id_foreign" foreign key ("author_id") ` +
        `references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "ticket_messages" add constraint "ticket_messages_sender_role_check" check ("sender_role" in ` +
        `('admin', 'creator'));`,
    );

    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_user_id_foreign" foreign key ("user_id") references ` +
        `"users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_plan_id_foreign" foreign key ("plan_id") references ` +
        `"plans" ("id");`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_status_check" check ("status" in ('active', ` +
        `'cancelled', 'expired'));`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_billing_cycle_check" check ("billing_cycle" in ` +
        `('monthly', 'quarterly', 'annual', 'onetime'));`,
    );

    this.addSql(
      `alter table "channel_users" add constraint "channel_users_channel_id_foreign" foreign key ("channel_id") ` +
        `references "channels" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "channel_users" add constraint "channel_users_user_id_foreign" foreign key ("user_id") references ` +
        `"users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "api_keys" add constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ` +
        `("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "user_addons" add constraint "user_addons_user_id_foreign" foreign key ("user_id") references ` +
        `"users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "user_addons" add constraint "user_addons_plan_id_foreign" foreign key ("plan_id") references ` +
        `"plans" ("id");`,
    );
    this.addSql(
      `alter table "user_addons" add constraint "user_addons_transaction_id_foreign" foreign key ("transaction_id") ` +
        `references "transactions" ("id");`,
    );
    this.addSql(
      `alter table "user_addons" add constraint "user_addons_billing_cycle_check" check ("billing_cycle" in ` +
        `('monthly', 'quarterly', 'annual', 'onetime'));`,
    );
    this.addSql(
      `alter table "user_addons" add constraint "user_addons_status_check" check ("status" in ('active', ` +
        `'cancelled'));`,
    );

    this.addSql(
      `alter table "webhook_endpoints" add constraint "webhook_endpoints_platform_id_foreign" foreign key ` +
        `("platform_id") references "platforms" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ` +
        `("endpoint_id") references "webhook_endpoints" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ` +
        `('pending', 'delivered', 'failed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "plans" drop constraint "plans_platform_id_foreign";`);
    this.addSql(`alter table "channels" drop constraint "channels_platform_id_foreign";`);
    this.addSql(`alter table "users" drop constraint "users_platform_id_foreign";`);
    this.addSql(`alter table "transactions" drop constraint "transactions_platform_id_foreign";`);
    this.addSql(`alter table "tickets" drop constraint "tickets_platform_id_foreign";`);
    this.addSql(`alter table "webhook_endpoints" drop constraint "webhook_endpoints_platform_id_foreign";`);
    this.addSql(`alter table "transactions" drop constraint "transactions_plan_id_foreign";`);
    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_plan_id_foreign";`);
    this.addSql(`alter table "user_addons" drop constraint "user_addons_plan_id_foreign";`);
    this.addSql(`alter table "messages" drop constraint "messages_channel_id_foreign";`);
    this.addSql(`alter table "labels" drop constraint "labels_channel_id_foreign";`);
    this.addSql(`alter table "custom_fields" drop constraint "custom_fields_channel_id_foreign";`);
    this.addSql(`alter table "contacts" drop constraint "contacts_channel_id_foreign";`);
    this.addSql(`alter table "automations" drop constraint "automations_channel_id_foreign";`);
    this.addSql(`alter table "templates" drop constraint "templates_channel_id_foreign";`);
    this.addSql(`alter table "channel_users" drop constraint "channel_users_channel_id_foreign";`);
    this.addSql(`alter table "contact_labels" drop constraint "contact_labels_label_id_foreign";`);
    this.addSql(`alter table "contact_labels" drop constraint "contact_labels_contact_id_foreign";`);
    this.addSql(`alter table "transactions" drop constraint "transactions_user_id_foreign";`);
    this.addSql(`alter table "tickets" drop constraint "tickets_owner_id_foreign";`);
    this.addSql(`alter table "tickets" drop constraint "tickets_assigned_to_id_foreign";`);
    this.addSql(`alter table "ticket_messages" drop constraint "ticket_messages_author_id_foreign";`);
    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_user_id_foreign";`);
    this.addSql(`alter table "channel_users" drop constraint "channel_users_user_id_foreign";`);
    this.addSql(`alter table "api_keys" drop constraint "api_keys_user_id_foreign";`);
    this.addSql(`alter table "user_addons" drop constraint "user_addons_user_id_foreign";`);
    this.addSql(`alter table "user_addons" drop constraint "user_addons_transaction_id_foreign";`);
    this.addSql(`alter table "ticket_messages" drop constraint "ticket_messages_ticket_id_foreign";`);
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_endpoint_id_foreign";`);

    this.addSql(`drop table if exists "outbound_emails" cascade;`);
    this.addSql(`drop table if exists "platforms" cascade;`);
    this.addSql(`drop table if exists "plans" cascade;`);
    this.addSql(`drop table if exists "channels" cascade;`);
    this.addSql(`drop table if exists "messages" cascade;`);
    this.addSql(`drop table if exists "labels" cascade;`);
    this.addSql(`drop table if exists "custom_fields" cascade;`);
    this.addSql(`drop table if exists "contacts" cascade;`);
    this.addSql(`drop table if exists "contact_labels" cascade;`);
    this.addSql(`drop table if exists "automations" cascade;`);
    this.addSql(`drop table if exists "templates" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "transactions" cascade;`);
    this.addSql(`drop table if exists "tickets" cascade;`);
    this.addSql(`drop table if exists "ticket_messages" cascade;`);
    this.addSql(`drop table if exists "subscriptions" cascade;`);
    this.addSql(`drop table if exists "channel_users" cascade;`);
    this.addSql(`drop table if exists "api_keys" cascade;`);
    this.addSql(`drop table if exists "user_addons" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
  }
}
