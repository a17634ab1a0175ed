/** The value of one series in a Prometheus text scrape (0 when absent). */
export function valueOf(scrape: string, series: string): number {
  const line = scrape.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** A server's /metrics text (its METRICS_PORT's). */
export async function scrapeMetrics(metricsUrl: string): Promise<string> {
  const reply = await fetch(metricsUrl);
  if (reply.status !== 200) throw new Error(`${metricsUrl}: ${reply.status}`);
  return reply.text();
}
