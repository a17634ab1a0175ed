import type { TestServer } from '../helpers/server.js';

/** One sample of a server's Prometheus text (METRICS_PORT), e.g. `switchboard_api_key_lookups_total{result="hit"}`. */
async function sample(server: TestServer, series: string): Promise<number> {
  const text = await (await fetch(server.metricsUrl!)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}

/** API keys this server answered from its caller cache so far. */
export const cacheHits = (server: TestServer) => sample(server, 'switchboard_api_key_lookups_total{result="hit"}');

/** Waits (up to 10 s) until the server's caller cache hears changes and may serve; usable in hooks too. */
export async function untilListening(server: TestServer): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await sample(server, 'switchboard_api_key_cache_listening')) !== 1) {
    if (Date.now() > deadline) throw new Error(`the caller cache of ${server.baseUrl} is not listening after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
