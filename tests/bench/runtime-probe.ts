/**
 * Loaded into a benchmarked server (`node --import`, BENCH_PROBE=1) to show where its latency tail comes from:
 * the event loop's delay (perf_hooks monitorEventLoopDelay: how late timers run, i.e. how long the loop was
 * blocked) and garbage collection pauses (PerformanceObserver `gc` entries, major ones apart). On SIGUSR2 it writes
 * what it saw since the last signal to BENCH_PROBE_FILE as JSON and starts over, so the benchmark brackets each run.
 * Plain erasable TypeScript: Node strips the types itself, without tsx in the server under test.
 */
import { writeFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

export interface ProbeReport {
  loopDelayP50: number;
  loopDelayP99: number;
  loopDelayMax: number;
  gcPauses: number;
  gcTotalMs: number;
  gcMaxMs: number;
  majorGcPauses: number;
  majorGcTotalMs: number;
  heapUsedMb: number;
}

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
let gc = { pauses: 0, total: 0, max: 0, major: 0, majorTotal: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.pauses++;
    gc.total += entry.duration;
    gc.max = Math.max(gc.max, entry.duration);
    const { detail } = entry as { detail?: { kind?: number } };
    if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      gc.major++;
      gc.majorTotal += entry.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });

const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;
const round = (value: number) => Math.round(value * 100) / 100;

process.on('SIGUSR2', () => {
  const report: ProbeReport = {
    loopDelayP50: ms(loop.percentile(50)),
    loopDelayP99: ms(loop.percentile(99)),
    loopDelayMax: ms(loop.max),
    gcPauses: gc.pauses,
    gcTotalMs: round(gc.total),
    gcMaxMs: round(gc.max),
    majorGcPauses: gc.major,
    majorGcTotalMs: round(gc.majorTotal),
    heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e6),
  };
  writeFileSync(process.env.BENCH_PROBE_FILE!, JSON.stringify(report));
  loop.reset();
  gc = { pauses: 0, total: 0, max: 0, major: 0, majorTotal: 0 };
});
