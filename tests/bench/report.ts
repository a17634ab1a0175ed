import { cpus, loadavg } from 'node:os';
import type { LoadResult } from './load-worker.js';
import type { ProbeReport } from './runtime-probe.js';

export interface Row extends LoadResult {
  round: number;
  mode: 'closed' | 'open';
  scenario: string;
  server: 'product' | 'raw';
  peakRss: number;
  loadBefore: number;
  /** The server process's CPU ms (user + system) over the run, per request answered. */
  cpuPerRequest: number;
  /** Its PostgreSQL backends' CPU ms over the run, per request answered (0 when the database is elsewhere). */
  databaseCpuPerRequest: number;
  /** BENCH_PROBE=1: the server's event-loop delay and GC pauses over the run. */
  probe?: ProbeReport;
}

export interface RunInfo {
  contacts: number;
  seconds: number;
  rounds: number;
  users: number;
  connections: number;
  started: Date;
  /** Each server's resident memory when the rounds are over, in MB. */
  rssAtEnd: Partial<Record<Row['server'], number>>;
  /** Each server's CPU ms per second while idle, and its database's, measured after the warm-up (see api.bench.ts). */
  idleCpu: Partial<Record<Row['server'], { server: number; database: number }>>;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const max = (values: number[]) => Math.max(0, ...values);
const fmt = (value: number) =>
  value >= 100 ? Math.round(value).toLocaleString('en-US') : String(Math.round(value * 10) / 10);

/** Both servers' figures for one scenario over all rounds: mean req/s and p50, worst p99, all errors, peak RSS. */
function summary(rows: Row[]) {
  return {
    rps: mean(rows.map((r) => r.requestsPerSecond)),
    p50: mean(rows.map((r) => r.latency.p50)),
    p99: max(rows.map((r) => r.latency.p99)),
    errors: rows.reduce((n, r) => n + r.errors, 0),
    rss: max(rows.map((r) => r.peakRss)),
    cpu: mean(rows.map((r) => r.cpuPerRequest)),
  };
}

/** A server's idle CPU and its database's, as the report words them. */
function idleOf(info: RunInfo, server: Row['server']): string {
  const idle = info.idleCpu[server];
  return `${fmt(idle?.server ?? 0)} ms/s (its database ${fmt(idle?.database ?? 0)})`;
}

/** The results as Markdown tables (pasteable into docs/benchmarks.md), with the machine's conditions. */
export function report(rows: Row[], info: RunInfo): string {
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  const lines = [
    '',
    `## ${info.contacts.toLocaleString('en-US')} contacts, ${info.rounds} round(s) of ${info.seconds} s per scenario ` +
      `and server, ${info.users.toLocaleString('en-US')} API users rotated, ` +
      `closed loop ${info.connections} connections (autocannon), ` +
      'fixed rate = open loop (own driver, latency from scheduled start)',
    `started ${info.started.toISOString()}, ${cpus().length} CPUs, 1-min load average before runs ` +
      `${fmt(Math.min(...rows.map((r) => r.loadBefore)))}–${fmt(max(rows.map((r) => r.loadBefore)))}, now ` +
      `${fmt(loadavg()[0]!)}`,
    '',
    '| scenario | product req/s | raw req/s | product/raw | product p50/p99 ms | raw p50/p99 ms | server CPU ms/req ' +
      '(product/raw) | errors (product/raw) | RSS MB (product/raw) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const scenario of scenarios) {
    const product = summary(rows.filter((r) => r.scenario === scenario && r.server === 'product'));
    const raw = summary(rows.filter((r) => r.scenario === scenario && r.server === 'raw'));
    lines.push(
      `| ${scenario} | ${fmt(product.rps)} | ${fmt(raw.rps)} | ${(product.rps / Math.max(1, raw.rps)).toFixed(2)} | ` +
        `${fmt(product.p50)}/${fmt(product.p99)} | ${fmt(raw.p50)}/${fmt(raw.p99)} | ` +
        `${product.cpu.toFixed(2)}/${raw.cpu.toFixed(2)} | ${product.errors}/${raw.errors} | ` +
        `${product.rss}/${raw.rss} |`,
    );
  }
  const classRows = rows.filter((r) => r.byClass);
  if (classRows.length) {
    lines.push('', '| open-loop scenario, term class | product p50/p99 ms | raw p50/p99 ms |', '|---|---|---|');
    const keys = [...new Set(classRows.flatMap((r) => Object.keys(r.byClass!).map((c) => `${r.scenario}\u0000${c}`)))];
    for (const key of keys) {
      const [scenario, termClass] = key.split('\u0000') as [string, string];
      const cell = (server: Row['server']) => {
        const stats = classRows
          .filter((r) => r.scenario === scenario && r.server === server)
          .map((r) => r.byClass![termClass]!);
        return `${fmt(mean(stats.map((s) => s.p50)))}/${fmt(max(stats.map((s) => s.p99)))}`;
      };
      lines.push(`| ${scenario}, ${termClass} | ${cell('product')} | ${cell('raw')} |`);
    }
  }
  const fixed = scenarios.filter((scenario) => rows.some((r) => r.scenario === scenario && r.mode === 'open'));
  if (fixed.length) {
    lines.push('', '| fixed-rate scenario | p99 product/raw, per round |', '|---|---|');
    for (const scenario of fixed) {
      const ratios = [...new Set(rows.map((r) => r.round))].map((round) => {
        const p99 = (server: Row['server']) =>
          rows.find((r) => r.scenario === scenario && r.round === round && r.server === server)?.latency.p99 ?? 0;
        return (p99('product') / Math.max(0.1, p99('raw'))).toFixed(2);
      });
      lines.push(`| ${scenario} | ${ratios.join(', ')} |`);
    }
  }
  const probed = rows.filter((r) => r.probe);
  if (probed.length) {
    lines.push(
      '',
      '| scenario, server (BENCH_PROBE=1) | event-loop delay p50/p99/max ms | GC pauses: count, total ms, max ms | ' +
        'major GC: count, total ms | heap used MB after |',
      '|---|---|---|---|---|',
    );
    for (const r of probed) {
      const p = r.probe!;
      lines.push(
        `| ${r.scenario}, ${r.server}, round ${r.round} | ${p.loopDelayP50}/${p.loopDelayP99}/${p.loopDelayMax} | ` +
          `${p.gcPauses}, ${p.gcTotalMs}, ${p.gcMaxMs} | ${p.majorGcPauses}, ${p.majorGcTotalMs} | ${p.heapUsedMb} |`,
      );
    }
  }
  const cpuRows = scenarios.filter((scenario) => rows.some((r) => r.scenario === scenario && r.server === 'raw'));
  if (cpuRows.length) {
    lines.push(
      '',
      '| scenario | server CPU ms/req product/raw (ratio), per round | the same less idle CPU (ratio), per round | ' +
        'database CPU ms/req product/raw (less idle), per round |',
      '|---|---|---|---|',
    );
    for (const scenario of cpuRows) {
      const rounds = [...new Set(rows.map((r) => r.round))];
      const cells = (lessIdle: boolean) =>
        rounds.map((round) => {
          const cpu = (server: Row['server']) => {
            const row = rows.find((r) => r.scenario === scenario && r.round === round && r.server === server);
            if (!row) return 0;
            const idle = lessIdle ? (info.idleCpu[server]?.server ?? 0) / Math.max(0.1, row.requestsPerSecond) : 0;
            return Math.max(0, row.cpuPerRequest - idle);
          };
          const ratio = cpu('product') / Math.max(0.01, cpu('raw'));
          return `${cpu('product').toFixed(2)}/${cpu('raw').toFixed(2)} (${ratio.toFixed(2)})`;
        });
      const database = rounds.map((round) => {
        const cpu = (server: Row['server'], lessIdle: boolean) => {
          const row = rows.find((r) => r.scenario === scenario && r.round === round && r.server === server);
          if (!row) return '–';
          const idle = lessIdle ? (info.idleCpu[server]?.database ?? 0) / Math.max(0.1, row.requestsPerSecond) : 0;
          return Math.max(0, row.databaseCpuPerRequest - idle).toFixed(2);
        };
        return `${cpu('product', false)}/${cpu('raw', false)} (${cpu('product', true)}/${cpu('raw', true)})`;
      });
      lines.push(`| ${scenario} | ${cells(false).join(', ')} | ${cells(true).join(', ')} | ${database.join(', ')} |`);
    }
  }
  lines.push(
    '',
    `RSS at the end: product ${info.rssAtEnd.product ?? '–'} MB, raw ${info.rssAtEnd.raw ?? '–'} MB. Idle CPU: ` +
      `product ${idleOf(info, 'product')}, raw ${idleOf(info, 'raw')}.`,
    '',
    'p50, req/s and CPU per request are means over rounds; p99 is the worst round. CPU per request is the server ' +
      'process alone (PostgreSQL and the load driver excluded): product minus raw is what the framework costs. ' +
      'Database CPU per request is that of the PostgreSQL backends each server connected (on this machine).',
    '',
  );
  return lines.join('\n');
}
