import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook deliveries are claimed from their own table (modules/webhooks/webhook-lanes.ts) instead of one pg-boss job
 * each: a pending delivery is always due at `next_attempt_at`, and the index reads one endpoint's due retries and
 * due first attempts apart, oldest first, whatever the backlog. Endpoints may take batched POSTs. Fair shares of
 * pg-boss's task queues keep turns in tables of their own (events/fair-shares.ts) instead of counting waiting jobs.
 */
export class WebhookLanes extends Migration {
  override name = 'Migration20261206120000_webhook_lanes';

  override up(): void {
    this.addSql(`alter table "webhook_endpoints" add column "batch" boolean not null default false;`);
    this.addSql(
      `update "webhook_deliveries" set "next_attempt_at" = coalesce("next_attempt_at", "created_at")
        where "status" = 'pending';`,
    );
    this.addSql(
      `create index "webhook_deliveries_due_index" on "webhook_deliveries"
        ("endpoint_id", least("attempts", 1), "next_attempt_at") where "status" = 'pending';`,
    );
    this.addSql(
      `create table "job_share_turns" ("queue" varchar(100) not null, "share" varchar(100) not null,
        "next_turn" bigint not null, constraint "job_share_turns_pkey" primary key ("queue", "share"));`,
    );
    this.addSql(
      `create table "job_queue_turns" ("queue" varchar(100) not null, "served_turn" bigint not null,
        constraint "job_queue_turns_pkey" primary key ("queue"));`,
    );
    // The jobs that used to carry webhook deliveries: the rows themselves are the queue now.
    this.addSql(
      `do $$ begin
        if to_regclass('pgboss.job') is not null then delete from pgboss.job where name = 'webhook.deliver'; end if;
      end $$;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "job_queue_turns";`);
    this.addSql(`drop table if exists "job_share_turns";`);
    this.addSql(`drop index "webhook_deliveries_due_index";`);
    this.addSql(`alter table "webhook_endpoints" drop column "batch";`);
  }
}
