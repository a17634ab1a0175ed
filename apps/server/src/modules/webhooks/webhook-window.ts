/**
 * How many POSTs one endpoint gets at once, learnt from its own answers (TCP's congestion window, AIMD): each prompt
 * answer widens the window (by one per answer until the first sign of strain, then by one per window's worth),
 * and a sign of strain (a timeout, a network error, 429, 502–504, or an answer slower than half the timeout)
 * halves it. Only an attempt started after the last halving can halve it again, so one burst of timeouts of the
 * POSTs that were in flight together counts once. No maintained JavaScript library does this (the known adaptive
 * limiters are Netflix's for the JVM), and it is this small.
 */
export interface WindowSettings {
  initial: number;
  max: number;
  /** An answer slower than this is a sign of strain (half the POST's timeout). */
  slowMs: number;
}

/** What an attempt said about the endpoint's load. */
export interface AttemptSignal {
  /** Strained: timed out, unreachable, 429, 502–504, or slow. */
  strained: boolean;
  /** When the attempt started (ms, the same clock as `now`). */
  startedAt: number;
}

export class ConcurrencyWindow {
  private current: number;
  /** Growth by one per answer below this, by one per window above it (TCP's slow-start threshold). */
  private threshold: number;
  private answeredSinceGrowth = 0;
  private halvedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly settings: WindowSettings) {
    this.current = settings.initial;
    this.threshold = settings.max;
  }

  /** POSTs that may be in flight now. */
  get limit(): number {
    return this.current;
  }

  record(signal: AttemptSignal, now: number): void {
    if (signal.strained) {
      if (signal.startedAt < this.halvedAt) return;
      this.current = Math.max(1, Math.floor(this.current / 2));
      this.threshold = this.current;
      this.halvedAt = now;
      this.answeredSinceGrowth = 0;
      return;
    }
    this.answeredSinceGrowth += 1;
    if (this.current < this.threshold || this.answeredSinceGrowth >= this.current) {
      this.current = Math.min(this.settings.max, this.current + 1);
      this.answeredSinceGrowth = 0;
    }
  }
}

/** Statuses that say the receiver is overloaded (rather than that it refused this event). */
const STRAINED_STATUSES = new Set([429, 502, 503, 504]);

/** The signal of an attempt's outcome: no status at all (timeout, network) or an overload status, or slow. */
export function isStrained(statusCode: number | null | undefined, durationMs: number, slowMs: number): boolean {
  if (statusCode === null || statusCode === undefined) return true;
  return STRAINED_STATUSES.has(statusCode) || durationMs > slowMs;
}
