import type { CpuUsage } from './cpu-meter';
import type { Pinning } from './cpu-pinning';
import type { RateResult, ThroughputResult } from './load-client';
import type { MachineInfo } from './machine-info';
import { spread, type Spread } from './stats';

/** Who answers: a bare Node server, the service itself (direct), or the service through the gateway. */
export const CONTENDERS = ['bare', 'direct', 'gateway'] as const;
export type Contender = (typeof CONTENDERS)[number];

/** One measurement at full load; `C` names the contenders (bare / direct / gateway unless a benchmark has its own). */
export interface ThroughputRound<C extends string = Contender> {
  round: number;
  probe: string;
  contender: C;
  result: ThroughputResult;
  cpu: CpuUsage;
}

export interface RateRound<C extends string = Contender> {
  round: number;
  probe: string;
  rate: number;
  contender: C;
  result: RateResult;
  cpu: CpuUsage;
}

/** How much load a run puts on the contenders, and for how long. */
export interface LoadPlan {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Fixed rates in req/s; the first is the one the target is stated at. */
  rates: number[];
  rateDurationSeconds: number;
  rateConnections: number;
}

export interface RunSettings extends LoadPlan {
  throughputTool: string;
  rateTool: string;
  logLevel: string;
  probes: string[];
}

/** What every benchmark's JSON holds besides its own fields; the report is rendered from it. */
export interface MeasuredRun<C extends string = Contender> {
  command: string;
  startedAt: string;
  finishedAt: string;
  machine: MachineInfo;
  loadAverage: { start: number[]; end: number[] };
  /** Which CPUs the servers and the load generator ran on; absent in runs recorded before it was. */
  pinning?: Pinning;
  settings: RunSettings;
  topology: string;
  probes: ReadonlyArray<{ id: string; path: string; headline: boolean }>;
  throughput: ThroughputRound<C>[];
  fixedRate: RateRound<C>[];
}

export interface ThroughputSummary {
  reqPerSec: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  /** CPU of the process answering (the bare server, or the launcher process running gateway and services). */
  serverCpuUsPerRequest: Spread;
  databaseCpuUsPerRequest: Spread;
  non2xx: number;
  errors: number;
}

export interface RateSummary {
  achievedRate: Spread;
  p50Ms: Spread;
  p90Ms: Spread;
  p99Ms: Spread;
  p999Ms: Spread;
  maxMs: Spread;
  serverCpuUsPerRequest: Spread;
  non2xx: number;
  errors: number;
  unanswered: number;
}

export interface RateLevelSummary {
  rate: number;
  byContender: Partial<Record<Contender, RateSummary>>;
  /** Gateway p99 minus direct p99 at this rate, per round, then the median. */
  addedP99Ms?: Spread;
  addedP50Ms?: Spread;
}

export type Ratio = 'gatewayOverBare' | 'directOverBare' | 'gatewayOverDirect';

export interface ProbeSummary {
  probe: string;
  throughput: Partial<Record<Contender, ThroughputSummary>>;
  /** Ratios of throughput, computed per round (the contenders ran back to back), then the median. */
  ratios: Partial<Record<Ratio, Spread>>;
  /** CPU the gateway adds per request in the launcher process: gateway round minus direct round. */
  gatewayCpuUsPerRequest?: Spread;
  rates: RateLevelSummary[];
}

export type Verdict = 'met' | 'missed' | 'not measured';

export interface TargetCheck {
  id: string;
  probe: string;
  what: string;
  source: string;
  measured?: number;
  unit: '×' | 'ms' | 'µs';
  comparator: '>=' | '<=';
  budget: number;
  verdict: Verdict;
  /** How far from the budget, in the target's unit: positive is a margin, negative a shortfall. */
  margin?: number;
  note?: string;
}

/** A target before it is judged: what, where, and the budget. */
export type Target = Omit<TargetCheck, 'verdict' | 'margin' | 'measured' | 'note'>;

export interface NoiseSummary {
  othersCores: Spread;
  noisy: boolean;
  reasons: string[];
}

/** CPU seconds spent over the requests answered, in µs each (0 when nothing was answered). */
export const perRequestUs = (seconds: number, requests: number) =>
  requests > 0 ? (seconds * 1e6) / requests : 0;
export const maybeSpread = (values: number[]) => (values.length > 0 ? spread(values) : undefined);

/** CPU seconds of the process that answered a round: the bare server, or the launcher (gateway and services). */
export function serverSeconds(row: { contender: Contender; cpu: CpuUsage }): number {
  return row.contender === 'bare' ? (row.cpu.groups.bare ?? 0) : (row.cpu.groups.launcher ?? 0);
}

/** The rows of one probe and one contender. */
export function mine<T extends { probe: string; contender: string }>(
  rows: readonly T[],
  probe: string,
  contender: T['contender'],
): T[] {
  return rows.filter((r) => r.probe === probe && r.contender === contender);
}

/**
 * Values of `pick` for the rounds where both contenders ran: the unit of every ratio and difference. A round whose
 * value is not a finite number (a ratio over a contender that answered nothing) is left out rather than turning
 * the median into Infinity.
 */
export function paired<T extends { round: number; probe: string; contender: string }>(
  rows: readonly T[],
  probe: string,
  a: T['contender'],
  b: T['contender'],
  pick: (x: T, y: T) => number,
): number[] {
  const values: number[] = [];
  for (const x of mine(rows, probe, a)) {
    const y = mine(rows, probe, b).find((r) => r.round === x.round);
    if (!y) continue;
    const value = pick(x, y);
    if (Number.isFinite(value)) values.push(value);
  }
  return values;
}

/** Medians (with ranges) of every figure of one probe, ratios and differences taken round by round. */
export function summariseProbe(
  run: Pick<MeasuredRun, 'throughput' | 'fixedRate' | 'settings'>,
  probe: string,
): ProbeSummary {
  const throughput: ProbeSummary['throughput'] = {};
  for (const contender of CONTENDERS) {
    const rows = mine(run.throughput, probe, contender);
    if (rows.length === 0) continue;
    throughput[contender] = {
      reqPerSec: spread(rows.map((r) => r.result.reqPerSec)),
      p50Ms: spread(rows.map((r) => r.result.latencyMs.p50)),
      p99Ms: spread(rows.map((r) => r.result.latencyMs.p99)),
      serverCpuUsPerRequest: spread(rows.map((r) => perRequestUs(serverSeconds(r), r.result.requests))),
      databaseCpuUsPerRequest: spread(
        rows.map((r) => perRequestUs(r.cpu.groups.database ?? 0, r.result.requests)),
      ),
      non2xx: rows.reduce((a, r) => a + r.result.non2xx, 0),
      errors: rows.reduce((a, r) => a + r.result.errors, 0),
    };
  }
  const rps = (r: ThroughputRound) => r.result.reqPerSec;
  return {
    probe,
    throughput,
    ratios: {
      gatewayOverBare: maybeSpread(
        paired(run.throughput, probe, 'gateway', 'bare', (g, b) => rps(g) / rps(b)),
      ),
      directOverBare: maybeSpread(paired(run.throughput, probe, 'direct', 'bare', (d, b) => rps(d) / rps(b))),
      gatewayOverDirect: maybeSpread(
        paired(run.throughput, probe, 'gateway', 'direct', (g, d) => rps(g) / rps(d)),
      ),
    },
    gatewayCpuUsPerRequest: maybeSpread(
      paired(
        run.throughput,
        probe,
        'gateway',
        'direct',
        (g, d) =>
          perRequestUs(serverSeconds(g), g.result.requests) -
          perRequestUs(serverSeconds(d), d.result.requests),
      ),
    ),
    rates: run.settings.rates
      .map((rate) =>
        summariseRate(
          run.fixedRate.filter((r) => r.rate === rate),
          probe,
          rate,
        ),
      )
      .filter((level) => Object.keys(level.byContender).length > 0),
  };
}

function summariseRate(rows: readonly RateRound[], probe: string, rate: number): RateLevelSummary {
  const byContender: RateLevelSummary['byContender'] = {};
  for (const contender of CONTENDERS) {
    const own = mine(rows, probe, contender);
    if (own.length === 0) continue;
    const pick = (f: (r: RateRound) => number) => spread(own.map(f));
    const total = (f: (r: RateRound) => number) => own.reduce((a, r) => a + f(r), 0);
    byContender[contender] = {
      achievedRate: pick((r) => r.result.achievedRate),
      p50Ms: pick((r) => r.result.latencyMs.p50),
      p90Ms: pick((r) => r.result.latencyMs.p90),
      p99Ms: pick((r) => r.result.latencyMs.p99),
      p999Ms: pick((r) => r.result.latencyMs.p999),
      maxMs: pick((r) => r.result.latencyMs.max),
      serverCpuUsPerRequest: pick((r) => perRequestUs(serverSeconds(r), r.result.completed)),
      non2xx: total((r) => r.result.non2xx),
      errors: total((r) => r.result.errors),
      unanswered: total((r) => r.result.unanswered),
    };
  }
  return {
    rate,
    byContender,
    addedP99Ms: maybeSpread(
      paired(rows, probe, 'gateway', 'direct', (g, d) => g.result.latencyMs.p99 - d.result.latencyMs.p99),
    ),
    addedP50Ms: maybeSpread(
      paired(rows, probe, 'gateway', 'direct', (g, d) => g.result.latencyMs.p50 - d.result.latencyMs.p50),
    ),
  };
}

/** Whether a contender answered (nearly) every request asked of it at a fixed rate. */
export function keptUp(summary: RateSummary | undefined, rate: number): boolean {
  return summary !== undefined && summary.achievedRate.median >= rate * 0.95 && summary.unanswered === 0;
}

/**
 * A target's verdict and margin. Not measured when there is no figure, or when the figure cannot be judged
 * (`unjudgeable` says why); `note` explains a judged figure.
 */
export function judge(
  target: Target,
  measured: number | undefined,
  explain: { note?: string; unjudgeable?: string } = {},
): TargetCheck {
  if (measured === undefined || explain.unjudgeable) {
    return {
      ...target,
      measured,
      verdict: 'not measured',
      note: explain.unjudgeable ?? 'not part of this run',
    };
  }
  const margin = target.comparator === '>=' ? measured - target.budget : target.budget - measured;
  return {
    ...target,
    measured,
    verdict: margin >= 0 ? 'met' : 'missed',
    margin,
    ...(explain.note ? { note: explain.note } : {}),
  };
}

/** A run is noisy when other programs took a real share of the CPU, or the load was high when it started. */
export function assessNoise(
  run: Pick<MeasuredRun<string>, 'throughput' | 'fixedRate' | 'machine' | 'loadAverage'>,
): NoiseSummary {
  const rows = [...run.throughput, ...run.fixedRate];
  const others = rows.map((r) => (r.cpu.wallSeconds > 0 ? r.cpu.others / r.cpu.wallSeconds : 0));
  const othersCores = others.length > 0 ? spread(others) : spread([0]);
  const reasons: string[] = [];
  const cores = run.machine.cores;
  if (othersCores.median > 0.25) {
    reasons.push(
      `other programs used a median ${othersCores.median.toFixed(2)} of the ${cores} cores during the measurements (max ${othersCores.max.toFixed(2)})`,
    );
  }
  // The load average at the end includes this benchmark's own last minute, so only the start one is judged.
  const start = run.loadAverage.start[0];
  if (start > cores * 0.5)
    reasons.push(`the 1-minute load average was ${start} when the run started, on ${cores} cores`);
  return { othersCores, noisy: reasons.length > 0, reasons };
}
