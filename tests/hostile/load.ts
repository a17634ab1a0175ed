/** One reply as a load loop saw it, with when it came back. */
export interface Hit {
  at: number;
  status: number;
  body: string;
  headers: Record<string, string>;
}

export interface Load {
  hits: Hit[];
  stop(): Promise<void>;
}

/**
 * `loops` callers in parallel, each sending one request after another with `pauseMs` between, keys taken in
 * turn so the read budget (120 a minute per user) is not what the test measures.
 */
export function startLoad(url: string, keys: string[], loops = 4, pauseMs = 150): Load {
  const hits: Hit[] = [];
  let running = true;
  let turn = 0;
  const loop = async () => {
    while (running) {
      const key = keys[turn++ % keys.length]!;
      try {
        const reply = await fetch(url, {
          method: 'POST',
          headers: { 'X-API-Key': key },
          signal: AbortSignal.timeout(15_000),
        });
        hits.push({
          at: Date.now(),
          status: reply.status,
          body: await reply.text(),
          headers: Object.fromEntries(reply.headers),
        });
      } catch (error) {
        hits.push({ at: Date.now(), status: 0, body: String(error), headers: {} });
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const loops$ = Array.from({ length: loops }, loop);
  return {
    hits,
    async stop() {
      running = false;
      await Promise.all(loops$);
    },
  };
}

/** Status → count, for failure messages and the printed summary. */
export const tally = (hits: Pick<Hit, 'status'>[]) =>
  hits.reduce<Record<number, number>>(
    (counts, hit) => ({ ...counts, [hit.status]: (counts[hit.status] ?? 0) + 1 }),
    {},
  );
