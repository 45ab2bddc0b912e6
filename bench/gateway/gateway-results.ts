import type { CpuUsage } from '../lib/cpu-meter';
import type { RateResult, ThroughputResult } from '../lib/load-client';
import type { MachineInfo } from '../lib/machine-info';
import { spread, type Spread } from '../lib/stats';

/** Who answers: a bare Node server, identity itself, or identity through the gateway. */
export const CONTENDERS = ['bare', 'direct', 'gateway'] as const;
export type Contender = (typeof CONTENDERS)[number];

export interface ProbeInfo {
  id: string;
  path: string;
  title: string;
  description: string;
  bodyBytes: number;
  headline: boolean;
  /** Who is measured on this probe (the gateway answers /healthz itself, so that probe skips it). */
  contenders: Contender[];
  /** Whether the requests carry the session cookie. */
  withCookie: boolean;
  /** Whether the probe runs in the fixed-rate phase. */
  fixedRate: boolean;
}

export interface ThroughputRound {
  round: number;
  probe: string;
  contender: Contender;
  result: ThroughputResult;
  cpu: CpuUsage;
}

export interface RateRound {
  round: number;
  probe: string;
  rate: number;
  contender: Contender;
  result: RateResult;
  cpu: CpuUsage;
}

export interface GatewaySettings {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Fixed rates in req/s; the first is the one the target is stated at. */
  rates: number[];
  rateDurationSeconds: number;
  rateConnections: number;
  throughputTool: string;
  rateTool: string;
  logLevel: string;
  probes: string[];
}

/** Everything one run measured: gateway.json holds exactly this, and the report is rendered from it. */
export interface GatewayRun {
  benchmark: 'gateway';
  formatVersion: 1;
  command: string;
  startedAt: string;
  finishedAt: string;
  machine: MachineInfo;
  loadAverage: { start: number[]; end: number[] };
  settings: GatewaySettings;
  topology: string;
  probes: ProbeInfo[];
  throughput: ThroughputRound[];
  fixedRate: RateRound[];
}

export interface ThroughputSummary {
  reqPerSec: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  /** CPU of the process answering (the bare server, or the launcher process running gateway and identity). */
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
  non2xx: number;
  errors: number;
  unanswered: number;
}

export interface ProbeSummary {
  probe: string;
  throughput: Partial<Record<Contender, ThroughputSummary>>;
  /** Ratios of throughput, computed per round (the three ran back to back) and then the median taken. */
  ratios: { gatewayOverDirect?: Spread; directOverBare?: Spread; gatewayOverBare?: Spread };
  /** CPU the gateway adds per request in the launcher process: gateway round minus direct round. */
  gatewayCpuUsPerRequest?: Spread;
  rates: RateLevelSummary[];
}

export interface RateLevelSummary {
  rate: number;
  byContender: Partial<Record<Contender, RateSummary>>;
  /** Gateway p99 minus direct p99 at this rate, per round, then the median. */
  addedP99Ms?: Spread;
  addedP50Ms?: Spread;
}

export type Verdict = 'met' | 'missed' | 'not measured';

export interface TargetCheck {
  id: string;
  probe: string;
  what: string;
  source: string;
  measured?: number;
  unit: string;
  comparator: '>=' | '<=';
  budget: number;
  verdict: Verdict;
  /** How far from the budget, in the target's unit: positive is a margin, negative a shortfall. */
  margin?: number;
  note?: string;
}

export interface NoiseSummary {
  othersCores: Spread;
  noisy: boolean;
  reasons: string[];
}

const perRequestUs = (seconds: number, requests: number) => (requests > 0 ? (seconds * 1e6) / requests : 0);

function byProbeAndContender<T extends { probe: string; contender: Contender }>(rows: readonly T[], probe: string, contender: Contender): T[] {
  return rows.filter((r) => r.probe === probe && r.contender === contender);
}

/** Values of `pick` for pairs of rounds where both contenders ran: the unit of every ratio and difference. */
function paired<T extends { round: number; probe: string; contender: Contender }>(
  rows: readonly T[],
  probe: string,
  a: Contender,
  b: Contender,
  pick: (x: T, y: T) => number,
): number[] {
  const values: number[] = [];
  for (const x of byProbeAndContender(rows, probe, a)) {
    const y = byProbeAndContender(rows, probe, b).find((r) => r.round === x.round);
    if (y) values.push(pick(x, y));
  }
  return values;
}

const maybeSpread = (values: number[]) => (values.length > 0 ? spread(values) : undefined);

function serverSeconds(row: { contender: Contender; cpu: CpuUsage }): number {
  return row.contender === 'bare' ? (row.cpu.groups.bare ?? 0) : (row.cpu.groups.launcher ?? 0);
}

export function summariseProbe(run: GatewayRun, probe: string): ProbeSummary {
  const throughput: ProbeSummary['throughput'] = {};
  for (const contender of CONTENDERS) {
    const rows = byProbeAndContender(run.throughput, probe, contender);
    if (rows.length > 0) {
      throughput[contender] = {
        reqPerSec: spread(rows.map((r) => r.result.reqPerSec)),
        p50Ms: spread(rows.map((r) => r.result.latencyMs.p50)),
        p99Ms: spread(rows.map((r) => r.result.latencyMs.p99)),
        serverCpuUsPerRequest: spread(rows.map((r) => perRequestUs(serverSeconds(r), r.result.requests))),
        databaseCpuUsPerRequest: spread(rows.map((r) => perRequestUs(r.cpu.groups.database ?? 0, r.result.requests))),
        non2xx: rows.reduce((a, r) => a + r.result.non2xx, 0),
        errors: rows.reduce((a, r) => a + r.result.errors, 0),
      };
    }
  }
  const rps = (r: ThroughputRound) => r.result.reqPerSec;
  return {
    probe,
    throughput,
    ratios: {
      gatewayOverDirect: maybeSpread(paired(run.throughput, probe, 'gateway', 'direct', (g, d) => rps(g) / rps(d))),
      directOverBare: maybeSpread(paired(run.throughput, probe, 'direct', 'bare', (d, b) => rps(d) / rps(b))),
      gatewayOverBare: maybeSpread(paired(run.throughput, probe, 'gateway', 'bare', (g, b) => rps(g) / rps(b))),
    },
    gatewayCpuUsPerRequest: maybeSpread(
      paired(
        run.throughput,
        probe,
        'gateway',
        'direct',
        (g, d) => perRequestUs(serverSeconds(g), g.result.requests) - perRequestUs(serverSeconds(d), d.result.requests),
      ),
    ),
    rates: run.settings.rates
      .map((rate) => summariseRate(run.fixedRate.filter((r) => r.rate === rate), probe, rate))
      .filter((level) => Object.keys(level.byContender).length > 0),
  };
}

function summariseRate(rows: readonly RateRound[], probe: string, rate: number): RateLevelSummary {
  const byContender: RateLevelSummary['byContender'] = {};
  for (const contender of CONTENDERS) {
    const mine = byProbeAndContender(rows, probe, contender);
    if (mine.length === 0) continue;
    const pick = (f: (r: RateRound) => number) => spread(mine.map(f));
    const total = (f: (r: RateRound) => number) => mine.reduce((a, r) => a + f(r), 0);
    byContender[contender] = {
      achievedRate: pick((r) => r.result.achievedRate),
      p50Ms: pick((r) => r.result.latencyMs.p50),
      p90Ms: pick((r) => r.result.latencyMs.p90),
      p99Ms: pick((r) => r.result.latencyMs.p99),
      p999Ms: pick((r) => r.result.latencyMs.p999),
      maxMs: pick((r) => r.result.latencyMs.max),
      non2xx: total((r) => r.result.non2xx),
      errors: total((r) => r.result.errors),
      unanswered: total((r) => r.result.unanswered),
    };
  }
  return {
    rate,
    byContender,
    addedP99Ms: maybeSpread(paired(rows, probe, 'gateway', 'direct', (g, d) => g.result.latencyMs.p99 - d.result.latencyMs.p99)),
    addedP50Ms: maybeSpread(paired(rows, probe, 'gateway', 'direct', (g, d) => g.result.latencyMs.p50 - d.result.latencyMs.p50)),
  };
}

function check(
  base: Omit<TargetCheck, 'verdict' | 'margin' | 'measured'>,
  measured: number | undefined,
  unmeasuredBecause?: string,
): TargetCheck {
  if (measured === undefined || unmeasuredBecause) {
    return { ...base, measured, verdict: 'not measured', note: unmeasuredBecause ?? 'not part of this run' };
  }
  const margin = base.comparator === '>=' ? measured - base.budget : base.budget - measured;
  return { ...base, measured, verdict: margin >= 0 ? 'met' : 'missed', margin };
}

/** Whether identity alone kept up with a rate: otherwise latencies there are queueing, not the gateway. */
export function keptUp(level: RateLevelSummary): boolean {
  const direct = level.byContender.direct;
  return direct !== undefined && direct.achievedRate.median >= level.rate * 0.95 && direct.unanswered === 0;
}

/** Why the added latency at the target rate cannot be judged, if it cannot; with the figure at a lower rate. */
function rateProblem(summary: ProbeSummary, rate: number): string | undefined {
  const level = summary.rates.find((l) => l.rate === rate);
  if (!level || !level.byContender.direct || !level.byContender.gateway) return 'not part of this run';
  if (keptUp(level)) return undefined;
  const achieved = level.byContender.direct.achievedRate.median;
  const lower = summary.rates.find((l) => l.rate < rate && keptUp(l) && l.addedP99Ms);
  const instead = lower?.addedP99Ms
    ? `; at ${lower.rate} req/s, which it sustains, gateway p99 minus direct p99 is ${lower.addedP99Ms.median.toFixed(2)} ms`
    : '';
  return `identity alone answered only ${achieved.toFixed(0)} of the ${rate} req/s asked on this machine, so latencies there are queueing, not the gateway${instead}`;
}

/** The issue's targets and ARCHITECTURE.md §9's service budget, for every probe measured. */
export function checkTargets(run: GatewayRun, summaries: readonly ProbeSummary[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const summary of summaries) {
    const probe = summary.probe;
    const contenders = run.probes.find((p) => p.id === probe)?.contenders ?? [...CONTENDERS];
    if (contenders.includes('gateway')) checks.push(...gatewayChecks(run, summary));
    checks.push(
      check(
        {
          id: 'service-over-bare',
          probe,
          what: 'identity endpoint ÷ bare Node http server, same JSON',
          source: 'ARCHITECTURE.md §9',
          unit: '×',
          comparator: '>=',
          budget: 0.6,
        },
        summary.ratios.directOverBare?.median,
      ),
    );
  }
  return checks;
}

/** The issue's two gateway targets, for a probe that went through the gateway. */
function gatewayChecks(run: GatewayRun, summary: ProbeSummary): TargetCheck[] {
  const probe = summary.probe;
  const targetRate = run.settings.rates[0];
  const rateIssue = rateProblem(summary, targetRate);
  const atTarget = summary.rates.find((l) => l.rate === targetRate);
  const added = check(
    {
      id: 'gateway-added-p99',
      probe,
      what: `p99 added by the gateway at ${targetRate} req/s`,
      source: 'issue; ARCHITECTURE.md §9',
      unit: 'ms',
      comparator: '<=',
      budget: 5,
    },
    atTarget?.addedP99Ms?.median,
    rateIssue,
  );
  const throughGateway = atTarget?.byContender.gateway?.achievedRate.median;
  if (added.verdict === 'missed' && throughGateway !== undefined && throughGateway < targetRate * 0.95) {
    added.note =
      `through the gateway only ${throughGateway.toFixed(0)} of the ${targetRate} req/s were answered: requests queued ` +
      'in the launcher process, where gateway and identity share one event loop';
  }
  return [
    check(
      {
        id: 'gateway-throughput',
        probe,
        what: 'throughput through the gateway ÷ direct to identity',
        source: 'issue; ARCHITECTURE.md §9',
        unit: '×',
        comparator: '>=',
        budget: 0.5,
      },
      summary.ratios.gatewayOverDirect?.median,
    ),
    added,
  ];
}

/** A run is noisy when other programs took a real share of the CPU, or the load was high when it started. */
export function assessNoise(run: GatewayRun): NoiseSummary {
  const rows = [...run.throughput, ...run.fixedRate];
  const others = rows.map((r) => (r.cpu.wallSeconds > 0 ? r.cpu.others / r.cpu.wallSeconds : 0));
  const othersCores = others.length > 0 ? spread(others) : spread([0]);
  const reasons: string[] = [];
  const cores = run.machine.cores;
  if (othersCores.median > 0.25) {
    reasons.push(`other programs used a median ${othersCores.median.toFixed(2)} of the ${cores} cores during the measurements (max ${othersCores.max.toFixed(2)})`);
  }
  // The load average at the end includes this benchmark's own last minute, so only the start one is judged.
  const start = run.loadAverage.start[0];
  if (start > cores * 0.5) {
    reasons.push(`the 1-minute load average was ${start} when the run started, on ${cores} cores`);
  }
  return { othersCores, noisy: reasons.length > 0, reasons };
}
