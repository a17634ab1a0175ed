/**
 * `npx tsx tests/bench/profile-summary.ts <file.cpuprofile>`: a V8 CPU profile of the product (`BENCH_CPU_PROF=1
 * pnpm bench` writes one into tests/artifacts/profiles) as Markdown: self time by layer of the request path, then
 * the top 15 functions by self time with their layer. docs/benchmarks.md keeps the tables.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Where a frame's code lives → the layer of the request path it belongs to; first match wins. Node's own frames
 * (`node:…`) and natives count for the nearest library or app frame above them (a socket write under pg is the
 * query's; under Express's response, the reply's); only with none above do they count as Node's (`NODE_LAYERS`).
 */
const LAYERS: [RegExp, string][] = [
  [/\/(pino|pino-http|pino-std-serializers|sonic-boom|@pinojs\/[^/]+)\/|\/http\/request-log\.js/, 'request logging'],
  [/\/rate-limiter-flexible\/|\/ioredis\/|\/http\/rate-limit\.js/, 'rate limiting'],
  [
    /\/http\/(auth|caller-cache|guards)\.js|\/api-keys\/|\/db\/notification-listener\.js|\/lru-cache\//,
    'auth + key cache',
  ],
  [/\/zod\//, 'zod request parsing'],
  [
    /\/express\/lib\/response\.js|\/http\/(error-handler|json-reply|reply-headers|request-id)\.js/,
    'envelope + response serialization',
  ],
  [
    /\/@mikro-orm\/|\/pg\/|\/pg-protocol\/|\/pg-pool\/|\/pg-types\/|\/kysely\/|\/apps\/server\/dist\/modules\//,
    'ORM / query',
  ],
  [/\/pg-boss\/|\/dist\/(events|kit|lifecycle)\//, 'background jobs'],
  [
    /\/@ts-rest\/|\/express\/|\/router\/|\/body-parser\/|\/raw-body\/|\/finalhandler\/|\/qs\/|\/apps\/server\/dist\//,
    'Express + ts-rest routing',
  ],
];
const NODE_LAYERS: [RegExp, string][] = [
  [/^node:_http_outgoing/, 'envelope + response serialization'],
  [/^node:(_http|net|internal\/(http|stream_base|net|streams)|stream)/, 'HTTP parsing + sockets'],
];

function layerOf(url: string): string | undefined {
  for (const [pattern, layer] of LAYERS) if (pattern.test(url)) return layer;
  return undefined;
}

function nodeLayerOf(url: string): string | undefined {
  if (!url.startsWith('node:')) return undefined;
  for (const [pattern, layer] of NODE_LAYERS) if (pattern.test(url)) return layer;
  return 'Node internals';
}

/** Self time (ms) per node: the time of the samples taken while it was on top of the stack. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  profile.samples.forEach((id, i) => times.set(id, (times.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  return times;
}

function layers(profile: CpuProfile): Map<number, string> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const result = new Map<number, string>();
  for (const node of profile.nodes) {
    const name = node.callFrame.functionName;
    if (name.startsWith('(')) {
      result.set(node.id, name === '(garbage collector)' ? 'garbage collection' : name);
      continue;
    }
    // JSON.stringify (native, no URL) of a reply: the result's JSON, wherever it is called from.
    if (name === 'stringify' && !node.callFrame.url) {
      result.set(node.id, 'JSON of the result');
      continue;
    }
    let fallback: string | undefined;
    let layer: string | undefined;
    for (let current: ProfileNode | undefined = node; current && !layer;) {
      layer = layerOf(current.callFrame.url);
      fallback ??= nodeLayerOf(current.callFrame.url);
      current = byId.get(parent.get(current.id) ?? -1);
    }
    result.set(node.id, layer ?? fallback ?? 'other');
  }
  return result;
}

const shortUrl = (url: string) =>
  url.replace(/^.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, '').replace(/^.*\/apps\/server\/dist\//, 'server/');

function summarise(profile: CpuProfile): string {
  const self = selfTimes(profile);
  const layerOfNode = layers(profile);
  const idle = new Set(['(idle)', '(program)']);
  const busy = profile.nodes.filter((node) => !idle.has(node.callFrame.functionName));
  const total = busy.reduce((sum, node) => sum + (self.get(node.id) ?? 0), 0);
  const pct = (ms: number) => `${((100 * ms) / total).toFixed(1)} %`;

  const perLayer = new Map<string, number>();
  const perFunction = new Map<string, { ms: number; layer: string }>();
  for (const node of busy) {
    const ms = self.get(node.id) ?? 0;
    const layer = layerOfNode.get(node.id)!;
    perLayer.set(layer, (perLayer.get(layer) ?? 0) + ms);
    const { functionName, url, lineNumber } = node.callFrame;
    // A native called from several layers (a socket write under pg and under Express) is one row per layer.
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '(native)';
    const key = `${functionName || '(anonymous)'} ${where}\u0000${layer}`;
    const entry = perFunction.get(key) ?? { ms: 0, layer };
    entry.ms += ms;
    perFunction.set(key, entry);
  }
  const lines = [
    `busy CPU in the profile: ${Math.round(total)} ms`,
    '',
    '| layer | self time | share |',
    '|---|---|---|',
    ...[...perLayer]
      .sort((a, b) => b[1] - a[1])
      .map(([layer, ms]) => `| ${layer} | ${Math.round(ms)} ms | ${pct(ms)} |`),
    '',
    '| # | function (self time) | layer | share |',
    '|---|---|---|---|',
    ...[...perFunction]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 15)
      .map(([key, { ms, layer }], i) => `| ${i + 1} | \`${key.split('\u0000')[0]}\` | ${layer} | ${pct(ms)} |`),
  ];
  return `${lines.join('\n')}\n`;
}

const file = process.argv[2];
if (!file) throw new Error('usage: tsx tests/bench/profile-summary.ts <file.cpuprofile>');
process.stdout.write(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile));
