import { request, type IncomingMessage } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { rssMb } from './servers.js';

export interface StreamBenchOptions {
  databaseUrl: string;
  baseUrl: string;
  /** The server's process, for its RSS. */
  pid: number;
  apiKeys: string[];
  channelId: string;
  streams: number;
  eventsPerSecond: number;
  seconds: number;
  log(line: string): void;
}

export interface StreamBenchResult {
  streams: number;
  eventsPerSecond: number;
  seconds: number;
  events: number;
  /** Streams whose every event was timed (the others are read and counted, not parsed). */
  timedStreams: number;
  /** Delivery latency from the writer's commit to a timed stream reading the event, in ms. */
  p50: number;
  p99: number;
  max: number;
  /** Events some stream did not get (a timed one by its marker, the others by count). */
  missing: number;
  rssBeforeMb: number;
  peakRssMb: number;
  loadBefore: number;
}

/** One stream in this many parses and times its events: parsing all of them would load the client, not the server. */
const TIMED_EVERY = 50;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

interface OpenStream {
  response: IncomingMessage;
  frames: number;
  close(): void;
}

function openStream(baseUrl: string, apiKey: string, onFrame: ((frame: string) => void) | undefined) {
  return new Promise<OpenStream>((resolve, reject) => {
    const req = request(`${baseUrl}/api/workspace/v1/events/stream?types=message.received`, {
      headers: { 'x-api-key': apiKey },
    });
    req.on('response', (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream refused: ${response.statusCode}`));
      const stream: OpenStream = { response, frames: 0, close: () => req.destroy() };
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!frame.startsWith('id:')) continue;
          stream.frames += 1;
          onFrame?.(frame);
        }
      });
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `streams` streams on one server (the keys in turn, at most 10 per user) receive `eventsPerSecond` events for
 * `seconds`: each event is a workspace_events row committed by its own statement (the trigger numbers it and
 * notifies, as for any event), carrying a marker; every TIMED_EVERY-th stream times each marker from the commit.
 */
export async function streamBench(options: StreamBenchOptions): Promise<StreamBenchResult> {
  const { log } = options;
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
  const [{ platform_id: platformId }] = (
    await pool.query<{ platform_id: string }>('select platform_id from channels where id = $1', [options.channelId])
  ).rows as [{ platform_id: string }];
  const committedAt = new Map<number, number>();
  const latencies: number[] = [];
  const seen: Set<number>[] = [];
  const onTimed = (index: number) => (frame: string) => {
    const marker = /"bench":(\d+)/.exec(frame);
    if (!marker) return;
    const n = Number(marker[1]);
    seen[index]!.add(n);
    const at = committedAt.get(n);
    if (at !== undefined) latencies.push(Math.max(0, performance.now() - at));
  };
  log(`streams: opening ${options.streams} event streams`);
  const streams: OpenStream[] = [];
  for (let i = 0; i < options.streams; i++) {
    const timed = i % TIMED_EVERY === 0;
    if (timed) seen[i] = new Set();
    streams.push(
      await openStream(options.baseUrl, options.apiKeys[i % options.apiKeys.length]!, timed ? onTimed(i) : undefined),
    );
  }
  const rssBeforeMb = rssMb(options.pid);
  const loadBefore = loadavg()[0]!;
  let peakRssMb = rssBeforeMb;
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(options.pid))), 200);
  const total = options.eventsPerSecond * options.seconds;
  log(`streams: ${total} events at ${options.eventsPerSecond}/s`);
  const started = performance.now();
  const writes: Promise<unknown>[] = [];
  try {
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / options.eventsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const payload = {
        type: 'message.received',
        timestamp: new Date().toISOString(),
        data: { channelId: options.channelId, bench: n, text: 'bench event' },
      };
      writes.push(
        pool
          .query(`insert into workspace_events (platform_id, channel_id, type, payload) values ($1, $2, $3, $4)`, [
            platformId,
            options.channelId,
            payload.type,
            payload,
          ])
          .then(() => committedAt.set(n, performance.now())),
      );
    }
    await Promise.all(writes);
    // The last events' way to every stream.
    const deadline = performance.now() + 5000;
    while (performance.now() < deadline && streams.some((stream) => stream.frames < total))
      await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    clearInterval(sampler);
    for (const stream of streams) stream.close();
    await pool.query(`delete from workspace_events where payload->'data' ? 'bench'`);
    await pool.end();
  }
  const sorted = latencies.sort((a, b) => a - b);
  return {
    streams: options.streams,
    eventsPerSecond: options.eventsPerSecond,
    seconds: options.seconds,
    events: total,
    timedStreams: seen.filter(Boolean).length,
    p50: Math.round(quantile(sorted, 0.5)),
    p99: Math.round(quantile(sorted, 0.99)),
    max: Math.round(sorted.at(-1) ?? 0),
    missing: streams.reduce((sum, stream) => sum + Math.max(0, total - stream.frames), 0),
    rssBeforeMb,
    peakRssMb,
    loadBefore,
  };
}

export const streamReport = (r: StreamBenchResult) =>
  `event stream: ${r.streams} streams × ${r.eventsPerSecond} events/s for ${r.seconds} s (${r.events} events, ` +
  `${r.timedStreams} streams timed): delivery from commit p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms; ` +
  `missing ${r.missing}; server RSS ${r.rssBeforeMb} MB with the streams open, peak ${r.peakRssMb} MB; ` +
  `load average ${r.loadBefore.toFixed(2)} before\n\n`;
