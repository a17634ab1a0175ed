import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from '../helpers/database.js';

/** One POST as a load receiver saw it. */
interface LoadHit {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** POSTs open at this receiver when this one arrived (itself included). */
  open: number;
}

/** A receiver for many deliveries: answers after `answer(n)` (ms, or 'hang'), counts what it holds open at once. */
export interface LoadReceiver {
  url: string;
  hits: LoadHit[];
  /** The most POSTs it held open at once since `resetPeak`. */
  peak: number;
  open: number;
  resetPeak(): void;
  close(): Promise<void>;
}

export async function startLoadReceiver(answer: (n: number) => number | 'hang' = () => 0): Promise<LoadReceiver> {
  const held = new Set<ServerResponse>();
  const state = { open: 0, peak: 0 };
  const hits: LoadHit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      state.open += 1;
      state.peak = Math.max(state.peak, state.open);
      hits.push({ at: Date.now(), headers: req.headers, body, open: state.open });
      const done = () => {
        state.open -= 1;
        held.delete(res);
      };
      res.on('close', done);
      held.add(res);
      const wait = answer(hits.length);
      if (wait === 'hang') return;
      setTimeout(() => res.writeHead(200).end(), wait);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hits,
    get peak() {
      return state.peak;
    },
    get open() {
      return state.open;
    },
    resetPeak: () => (state.peak = state.open),
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * `count` deliveries of a `ticket.closed`-shaped event for `endpointId`, written straight into the table as the
 * service writes them (a backlog built in a second instead of by thousands of API calls). `attempts` > 0 makes them
 * retries; `dueInSeconds` when they come due (negative: overdue).
 */
export async function insertDeliveries(
  databaseUrl: string,
  endpointId: string,
  count: number,
  { attempts = 0, dueInSeconds = 0, tag = 'backlog' }: { attempts?: number; dueInSeconds?: number; tag?: string } = {},
): Promise<void> {
  await sql(
    databaseUrl,
    `insert into webhook_deliveries (id, endpoint_id, webhook_id, event_type, payload, status, attempts,
        next_attempt_at, created_at, updated_at)
      select gen_random_uuid(), $1, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'ticket.closed',
        jsonb_build_object('type', 'ticket.closed', 'timestamp', now(), 'data', jsonb_build_object('tag', $4::text,
          'n', g)),
        'pending', $3, now() + make_interval(secs => $5), now(), now()
      from generate_series(1, $2) as g`,
    [endpointId, count, attempts, tag, dueInSeconds],
  );
}

/** Pending deliveries of an endpoint. */
export async function pendingOf(databaseUrl: string, endpointId: string): Promise<number> {
  const [row] = await sql<{ count: number }>(
    databaseUrl,
    `select count(*)::int as count from webhook_deliveries where endpoint_id = $1 and status = 'pending'`,
    [endpointId],
  );
  return row!.count;
}
