import type { EntityManager } from '@mikro-orm/postgresql';

/** The budget key of a channel's sends (send_paces.key). */
export const channelPaceKey = (channelId: string) => `channel:${channelId}`;

/** Slots taken from a budget: message i of them may go at `startMs + i * spacingMs`. */
export interface SendSlots {
  key: string;
  count: number;
  startMs: number;
  spacingMs: number;
  /** The budget's `next_at` after this reservation (microseconds since the epoch): what a refund must find. */
  endMicros: string;
}

/**
 * Takes `count` slots of a budget of `ratePerSecond` (the generic cell rate algorithm, held in PostgreSQL so every
 * instance draws on the same budget): the budget's next free time moves on by count / rate, and the taker sends
 * message i at its slot. One statement, so concurrent takers get disjoint slots. Clock: PostgreSQL's, for every
 * instance alike.
 */
export async function takeSendSlots(
  em: EntityManager,
  key: string,
  count: number,
  ratePerSecond: number,
): Promise<SendSlots> {
  const rows = await em.execute<{ end_micros: string; now_micros: string }[]>(
    `insert into "send_paces" ("key", "next_at") values (?, clock_timestamp() + make_interval(secs => ?::float8 / ?))
      on conflict ("key") do update set "next_at" = greatest("send_paces"."next_at", clock_timestamp())
        + make_interval(secs => ?::float8 / ?)
      returning (extract(epoch from "next_at") * 1000000)::bigint::text as end_micros,
        (extract(epoch from clock_timestamp()) * 1000000)::bigint::text as now_micros`,
    [key, count, ratePerSecond, count, ratePerSecond],
  );
  const { end_micros: endMicros, now_micros: nowMicros } = rows[0]!;
  const spacingMs = 1000 / ratePerSecond;
  // Slot times are turned into this process's clock through the offset PostgreSQL's clock has from it.
  const offsetMs = Date.now() - Number(nowMicros) / 1000;
  const startMs = Number(endMicros) / 1000 - count * spacingMs + offsetMs;
  return { key, count, startMs, spacingMs, endMicros };
}

/**
 * Gives back the last `unused` slots of a reservation when nobody has taken slots after it (else they are lost:
 * the budget is then only under-used for a moment).
 */
export async function returnSendSlots(em: EntityManager, slots: SendSlots, unused: number): Promise<void> {
  if (unused <= 0) return;
  await em.execute(
    `update "send_paces" set "next_at" = "next_at" - make_interval(secs => ?::float8 / 1000)
      where "key" = ? and (extract(epoch from "next_at") * 1000000)::bigint = ?::bigint`,
    [unused * slots.spacingMs, slots.key, slots.endMicros],
    'run',
  );
}

/** Resolves at `atMs` (this process's clock), at once if that has passed. */
export function sleepUntil(atMs: number): Promise<void> {
  const wait = atMs - Date.now();
  return wait <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, wait));
}
