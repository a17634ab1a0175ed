/**
 * One load run, as its own process (a load generator sharing a server's event loop would add its work to every
 * latency). Reads a LoadSpec from the JSON file named on the command line and prints a LoadResult as JSON.
 *
 * - closed loop: autocannon, `connections` connections each sending its next request when the last one answered.
 * - open loop: requests started on a fixed schedule (`rate` per second) whatever the server's state, over as many
 *   keep-alive connections as that needs; each latency counts from the request's scheduled start, so a stalled
 *   server cannot hide its queue (no coordinated omission). autocannon's `overallRate` is not used for this: it
 *   only throttles its closed loop and times requests from when they are actually sent.
 *
 * Every request picks the next body and the next API key in turn, so terms vary and no user's budget trips.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  path: string;
  mode: 'closed' | 'open';
  seconds: number;
  connections: number;
  rate: number;
  keys: string[];
  bodies: { body: object; termClass?: string }[];
}

export interface Latencies {
  p50: number;
  p99: number;
  count: number;
}
export interface LoadResult {
  requestsPerSecond: number;
  latency: Latencies;
  /** Transport errors, timeouts and non-2xx replies. */
  errors: number;
  /** Open loop only: p50/p99 per term class. */
  byClass?: Record<string, Latencies>;
}

const TIMEOUT_MS = 10_000;

function percentiles(samples: number[]): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
  return { p50: Math.round(at(0.5) * 10) / 10, p99: Math.round(at(0.99) * 10) / 10, count: sorted.length };
}

async function closedLoop(spec: LoadSpec): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    timeout: TIMEOUT_MS / 1000,
    requests: [
      {
        method: 'POST',
        path: spec.path,
        setupRequest: (req) => {
          const i = next++;
          const headers = { 'content-type': 'application/json', 'x-api-key': spec.keys[i % spec.keys.length]! };
          return { ...req, headers, body: JSON.stringify(spec.bodies[i % spec.bodies.length]!.body) };
        },
      },
    ],
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latency: { p50: result.latency.p50, p99: result.latency.p99, count: result.requests.total },
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

function send(spec: LoadSpec, agent: Agent, i: number): Promise<boolean> {
  const payload = JSON.stringify(spec.bodies[i % spec.bodies.length]!.body);
  return new Promise((resolve) => {
    const req = request(
      `${spec.url}${spec.path}`,
      {
        method: 'POST',
        agent,
        timeout: TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-api-key': spec.keys[i % spec.keys.length]!,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end(payload);
  });
}

async function openLoop(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const total = Math.round(spec.rate * spec.seconds);
  const latencies: number[] = [];
  const byClass = new Map<string, number[]>();
  let errors = 0;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / spec.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      send(spec, agent, i).then((ok) => {
        const latency = performance.now() - due;
        if (!ok) errors++;
        latencies.push(latency);
        const termClass = spec.bodies[i % spec.bodies.length]!.termClass;
        if (termClass)
          byClass
            .set(termClass, byClass.get(termClass) ?? [])
            .get(termClass)!
            .push(latency);
      }),
    );
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    requestsPerSecond: Math.round(total / elapsed),
    latency: percentiles(latencies),
    errors,
    byClass: byClass.size
      ? Object.fromEntries([...byClass].map(([name, samples]) => [name, percentiles(samples)]))
      : undefined,
  };
}

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;
const result = await (spec.mode === 'closed' ? closedLoop(spec) : openLoop(spec));
process.stdout.write(JSON.stringify(result));
