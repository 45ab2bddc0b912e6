/**
 * The school morning's pure parts (issue #38): when sessions arrive, how each route's answers are summed up per
 * step, and where the knee is. No I/O here: bench/morning/plan.spec.ts checks them.
 */

export { seededRandom } from '../lib/seeded-random';

export type ArrivalKind = 'even' | 'poisson';

/**
 * When the sessions of one step start, in ms from the step's start: `perMinute` sessions a minute for
 * `stepSeconds`, whatever earlier sessions are doing (open loop). `even` spaces them exactly 60,000 / perMinute ms
 * apart; `poisson` draws exponential gaps of that mean from `random` (a school's pupils do not arrive on a clock).
 */
export function arrivalOffsets(
  perMinute: number,
  stepSeconds: number,
  kind: ArrivalKind = 'even',
  random: () => number = Math.random,
): number[] {
  if (!(perMinute > 0)) throw new Error('the rate must be above 0 sessions a minute');
  if (!(stepSeconds > 0)) throw new Error('a step must last more than 0 s');
  const gap = 60_000 / perMinute;
  const end = stepSeconds * 1000;
  const offsets: number[] = [];
  if (kind === 'even') {
    for (let at = 0; at < end; at = offsets.length * gap) offsets.push(Math.round(at * 1000) / 1000);
    return offsets;
  }
  for (let at = -Math.log(1 - random()) * gap; at < end; at += -Math.log(1 - random()) * gap)
    offsets.push(Math.round(at * 1000) / 1000);
  return offsets;
}

/** `200,400,600` → [200, 400, 600]; each a positive number, ascending. */
export function parseSteps(text: string): number[] {
  const steps = text.split(',').map((s) => Number(s.trim()));
  if (steps.length === 0 || steps.some((s) => !Number.isFinite(s) || s <= 0))
    throw new Error(`--steps must be positive rates separated by commas, got "${text}"`);
  for (let i = 1; i < steps.length; i++)
    if (steps[i] <= steps[i - 1]) throw new Error(`--steps must ascend, got "${text}"`);
  return steps;
}

/** The value at percentile `p` (0–100) of ascending `sorted`, by nearest rank; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export interface RouteSummary {
  route: string;
  /** Answers timed (the right status and the wrong ones). */
  count: number;
  /** Answers with another status than expected, or none at all (status 0). */
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface ErrorRecord {
  step: number;
  route: string;
  /** The status received; 0 when no answer came. */
  status: number;
  expected: string;
  message: string;
}

/** One step's timings, route by route. Times in ms. */
export class StepRecorder {
  private readonly times = new Map<string, number[]>();
  private readonly errorCounts = new Map<string, number>();
  readonly errors: ErrorRecord[] = [];
  sessionsStarted = 0;
  sessionsCompleted = 0;
  sessionsFailed = 0;

  constructor(readonly step: number) {}

  time(route: string, ms: number): void {
    let list = this.times.get(route);
    if (!list) this.times.set(route, (list = []));
    list.push(ms);
  }

  error(route: string, status: number, expected: string, message: string): void {
    this.errorCounts.set(route, (this.errorCounts.get(route) ?? 0) + 1);
    // Enough of them to see what went wrong, not a million lines when everything fails.
    if (this.errors.length < 200)
      this.errors.push({ step: this.step, route, status, expected, message: message.slice(0, 300) });
  }

  errorCount(): number {
    let n = 0;
    for (const c of this.errorCounts.values()) n += c;
    return n;
  }

  routes(): RouteSummary[] {
    const names = new Set([...this.times.keys(), ...this.errorCounts.keys()]);
    return [...names]
      .sort()
      .map((route) => summarise(route, this.times.get(route) ?? [], this.errorCounts.get(route) ?? 0));
  }
}

export function summarise(route: string, times: readonly number[], errors: number): RouteSummary {
  const sorted = [...times].sort((a, b) => a - b);
  const r = (v: number) => (Number.isNaN(v) ? Number.NaN : Math.round(v * 10) / 10);
  return {
    route,
    count: sorted.length,
    errors,
    p50: r(percentile(sorted, 50)),
    p95: r(percentile(sorted, 95)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted.length ? sorted[sorted.length - 1] : Number.NaN),
  };
}

export interface KneeVerdict {
  /** True once this step is past the knee: stepping stops after it. */
  past: boolean;
  reasons: string[];
}

/**
 * Whether a step is past the knee: any route's p95 above `p95LimitMs`, or any error. Routes in `exempt` (the chat
 * messages' echoes, which wait on other people's sockets, or the session's own whole duration) are not held to the
 * latency limit, but their errors count.
 */
export function kneeVerdict(
  routes: readonly RouteSummary[],
  p95LimitMs: number,
  exempt: readonly string[] = [],
): KneeVerdict {
  const reasons: string[] = [];
  for (const r of routes) {
    if (r.errors > 0) reasons.push(`${r.route}: ${r.errors} error(s)`);
    if (!exempt.includes(r.route) && r.count > 0 && r.p95 > p95LimitMs)
      reasons.push(`${r.route}: p95 ${r.p95} ms > ${p95LimitMs} ms`);
  }
  return { past: reasons.length > 0, reasons };
}

/** The step a request started in: the last step whose start is at or before `at` (a drain counts as the last step). */
export function stepAt(stepStarts: readonly number[], at: number): number {
  let step = 0;
  for (let i = 0; i < stepStarts.length; i++) if (stepStarts[i] <= at) step = i;
  return step;
}
