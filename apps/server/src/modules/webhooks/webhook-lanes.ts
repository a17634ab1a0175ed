import type { EntityManager } from '@mikro-orm/postgresql';
import type { Backlog, QueueGauge } from '../../kit/jobs.js';

/**
 * The queries of the webhook dispatcher (webhook-dispatcher.ts). A pending delivery is due at `next_attempt_at`; a
 * claim moves that to the end of a lease, so a delivery whose instance dies mid-attempt comes due again by itself.
 * Every query reads `webhook_deliveries_due_index` (an endpoint's due retries apart from its due first attempts, each
 * oldest first): its cost does not grow with the backlog. Hand-written SQL: SKIP LOCKED claims, the skip scan and
 * set-based recording have no ORM form (see docs/architecture.md).
 */

/** The queue name the dispatcher's deliveries are known by (logs, /metrics). */
const WEBHOOK_QUEUE = 'webhook.deliver';

/** A claimed delivery, as its POST and its record need it. */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  payload: Record<string, unknown>;
  attempts: number;
  created_at: Date | string;
}

/** The endpoint a lane delivers to, read at each claim (a rotation, a pause or a new URL applies at once). */
export interface LaneEndpoint {
  id: string;
  platform_id: string;
  url: string;
  is_active: boolean;
  batch: boolean;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | string | null;
}

/**
 * Endpoints with a due delivery, in no useful order: a skip scan over the index (one probe per endpoint with pending
 * deliveries, not one per delivery), then one probe per lane for a due one.
 */
export async function endpointsWithDueDeliveries(em: EntityManager): Promise<LaneEndpoint[]> {
  return em.execute<LaneEndpoint[]>(
    `with recursive pending ("endpoint_id") as (
        (select "endpoint_id" from "webhook_deliveries" where "status" = 'pending' order by "endpoint_id" limit 1)
        union all
        select (select d."endpoint_id" from "webhook_deliveries" as d
                 where d."status" = 'pending' and d."endpoint_id" > p."endpoint_id" order by d."endpoint_id" limit 1)
          from pending as p where p."endpoint_id" is not null)
      select e."id", e."platform_id", e."url", e."is_active", e."batch", e."secret_ciphertext",
        e."previous_secret_ciphertext", e."previous_secret_expires_at"
        from pending as p join "webhook_endpoints" as e on e."id" = p."endpoint_id"
       where exists (select 1 from (values (0), (1)) as lane ("retry") where exists (
         select 1 from "webhook_deliveries" as d where d."endpoint_id" = p."endpoint_id" and d."status" = 'pending'
            and least(d."attempts", 1) = lane."retry" and d."next_attempt_at" <= now()))`,
  );
}

/** The channel on which a committed delivery wakes the dispatchers (it also looks every 100 ms). */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

/** Wakes every instance's dispatcher when the caller's transaction commits (once per transaction, however many). */
export async function notifyDispatchers(tx: EntityManager): Promise<void> {
  await tx.execute(`select pg_notify('${DELIVERIES_CHANNEL}', '')`, [], 'run');
}

/** The endpoint as a lane needs it now; null once it is deleted. */
export async function laneEndpoint(em: EntityManager, endpointId: string): Promise<LaneEndpoint | null> {
  const rows = await em.execute<LaneEndpoint[]>(
    `select "id", "platform_id", "url", "is_active", "batch", "secret_ciphertext", "previous_secret_ciphertext",
        "previous_secret_expires_at" from "webhook_endpoints" where "id" = ?`,
    [endpointId],
  );
  return rows[0] ?? null;
}

/**
 * Claims up to `limit` of an endpoint's due deliveries for `leaseSeconds`: due retries first (they are not queued
 * behind a backlog of first attempts), then first attempts, each oldest first. The statement is its own transaction,
 * and SKIP LOCKED lets instances claim side by side.
 */
export async function claimDueDeliveries(
  em: EntityManager,
  endpointId: string,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedDelivery[]> {
  return em.execute<ClaimedDelivery[]>(
    `with due as (
        select x."id" from (values (1), (0)) as lane ("retry") cross join lateral (
          select "id" from "webhook_deliveries" where "endpoint_id" = ? and "status" = 'pending'
             and least("attempts", 1) = lane."retry" and "next_attempt_at" <= now()
           order by "next_attempt_at" limit ? for update skip locked) as x
        limit ?)
      update "webhook_deliveries" set "next_attempt_at" = now() + make_interval(secs => ?)
       where "id" = any(array(select "id" from due)) and "status" = 'pending'
      returning "id", "webhook_id", "payload", "attempts", "created_at"`,
    [endpointId, limit, limit, leaseSeconds],
  );
}

/** What one attempt of a claimed delivery came to, to be written with the others of its flush. */
export interface AttemptRecord {
  id: string;
  /** The delivery's attempts when claimed: the guard that makes a second record of the same attempt a no-op. */
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  code: number | null;
  error: string | null;
  /** The retry's time when `pending`. */
  next: string | null;
  duration: number;
}

/**
 * Writes a flush of attempts in one statement: each delivery's new state (only while it is still pending with the
 * attempt count it was claimed with) and, for those, the attempt's log row. Returns the ids written.
 */
export async function recordAttempts(tx: EntityManager, records: readonly AttemptRecord[]): Promise<string[]> {
  if (records.length === 0) return [];
  const rows = await tx.execute<{ id: string }[]>(
    `with v as (select * from jsonb_to_recordset(?::jsonb) as v ("id" uuid, "attempts" int, "status" text,
          "code" int, "error" text, "next" timestamptz, "duration" int)),
      written as (
        update "webhook_deliveries" as d set "attempts" = v."attempts" + 1, "status" = v."status",
            "last_status_code" = v."code", "last_error" = v."error", "next_attempt_at" = v."next",
            "delivered_at" = case when v."status" = 'delivered' then now() end, "updated_at" = now()
          from v where d."id" = v."id" and d."attempts" = v."attempts" and d."status" = 'pending'
        returning d."id", v."attempts", v."code", v."error", v."duration")
      insert into "webhook_attempts" ("id", "delivery_id", "attempt", "status_code", "error", "duration_ms",
          "created_at")
        select gen_random_uuid(), "id", "attempts" + 1, "code", "error", "duration", now() from written
      returning "delivery_id" as "id"`,
    [JSON.stringify(records)],
  );
  return rows.map((row) => row.id);
}

/** Claims given back unattempted (a stop): due again at once, for this instance after a restart or for another. */
export async function releaseClaims(em: EntityManager, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await em.execute(
    `update "webhook_deliveries" set "next_attempt_at" = now() where "id" = any(?::uuid[]) and "status" = 'pending'`,
    [ids],
    'run',
  );
}

/**
 * Pending deliveries as the table holds them: due now, and due later (scheduled retries, and claims under way, whose
 * lease is in the future: the dispatcher counts its own as due); the lag of the oldest due one.
 */
export async function deliveryGauge(em: EntityManager): Promise<QueueGauge> {
  const [row] = await em.execute<(Backlog & { lagSeconds: number })[]>(
    `select count(*) filter (where "next_attempt_at" <= now())::int as "due",
        count(*) filter (where "next_attempt_at" > now())::int as "later",
        coalesce(extract(epoch from now() - min("next_attempt_at") filter (where "next_attempt_at" <= now())),
          0)::float8 as "lagSeconds"
      from "webhook_deliveries" where "status" = 'pending'`,
  );
  return { queue: WEBHOOK_QUEUE, ...row! };
}
