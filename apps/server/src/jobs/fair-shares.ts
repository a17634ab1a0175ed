import type { Db } from 'pg-boss';

/**
 * Fair shares without counting. A job that names a share (a tenant: a channel, a platform) takes the share's next
 * turn, never earlier than the queue's clock (the latest turn a worker has started): start-time fair queueing. Its
 * pg-boss priority is minus how far that turn runs ahead of the clock, which is the number of the share's jobs still
 * ahead of it, so the n-th waiting job of every share comes before the (n+1)-th of any, and an idle share's job goes
 * to the front, whatever order they were queued in.
 *
 * Both numbers live in small tables of our own, one row per share and one per queue, read and written by primary key:
 * the cost of queueing does not grow with any backlog (counting a share's waiting jobs scanned pg-boss's job table,
 * which has no index on its group for waiting jobs; see docs/architecture.md for why not add one). A turn taken by a
 * transaction that rolls back leaves a gap, which the clock passes over (`greatest`): nothing drifts.
 */

/** Beyond this many jobs ahead, a share's jobs wait behind everyone else's anyway; pg-boss's priority is an int. */
const AHEAD_CAP = 1_000_000;

/** The key under which a job's data carries its turn, for the worker to move the queue's clock when it starts. */
const TURN_KEY = 'shareTurn';

const TAKE_TURN_SQL = `
  with clock as (select coalesce((select served_turn from job_queue_turns where queue = $1), 0) as served),
  taken as (
    insert into job_share_turns as s (queue, share, next_turn) select $1, $2, served + 1 from clock
    on conflict (queue, share) do update set next_turn = greatest(s.next_turn, (select served from clock)) + 1
    returning s.next_turn - 1 as turn)
  select taken.turn::float8 as turn, least(taken.turn - clock.served, ${AHEAD_CAP})::int as ahead from taken, clock`;

/** Takes `share`'s next turn in `queue` inside the queueing transaction (`db`). */
export async function takeTurn(db: Db, queue: string, share: string): Promise<{ turn: number; ahead: number }> {
  const { rows } = await db.executeSql(TAKE_TURN_SQL, [queue, share]);
  return rows[0] as { turn: number; ahead: number };
}

/** The job's data with its turn, as it is stored. */
export const withTurn = (data: object, turn: number): object => ({ ...data, [TURN_KEY]: turn });

/**
 * The data as it was queued, and the turn it carried (undefined for a job queued without a share, and for a
 * schedule's occurrence, which pg-boss queues with null data).
 */
export function splitTurn<T extends object>(stored: T): { data: T; turn: number | undefined } {
  if (stored === null || !(TURN_KEY in stored)) return { data: stored, turn: undefined };
  const { [TURN_KEY]: turn, ...data } = stored as T & { [TURN_KEY]: number };
  return { data: data as T, turn };
}

/**
 * The queue's clock: moved forward (never back) when a worker starts a job with a later turn; its row is made by the
 * first such start, so starting the worker writes nothing (an instance may start before the migrations ran). `seen`
 * keeps the latest turn this process wrote per queue, so a run of jobs of older turns writes nothing.
 */
export function clockOf(db: () => Db) {
  const seen = new Map<string, number>();
  return {
    async started(queue: string, turn: number | undefined) {
      if (turn === undefined || turn <= (seen.get(queue) ?? -1)) return;
      seen.set(queue, turn);
      await db().executeSql(
        `insert into job_queue_turns as q (queue, served_turn) values ($1, $2)
         on conflict (queue) do update set served_turn = excluded.served_turn
         where q.served_turn < excluded.served_turn`,
        [queue, turn],
      );
    },
  };
}
