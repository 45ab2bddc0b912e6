import {
  judge,
  maybeSpread,
  mine,
  paired,
  perRequestUs,
  type MeasuredRun,
  type RateLevelSummary,
  type TargetCheck,
  type ThroughputRound,
} from '../lib/results';
import { spread, type Spread } from '../lib/stats';

/**
 * Who answers in the platform benchmark:
 * - `bare`: the bare Node `http` server answering the same bytes;
 * - `direct`: the service on its own loopback port in the standalone launcher;
 * - `gateway`: the standalone launcher's gateway, which hands the request to the service in its process;
 * - `cluster-gateway`: a gateway in its own process (`--target=gateway`), proxying to content's loopback port;
 * - `minimal-proxy`: a plain keep-alive `http.request` + `pipe` proxy in its own process, in front of the same port.
 */
export const SETUPS = ['bare', 'direct', 'gateway', 'cluster-gateway', 'minimal-proxy'] as const;
export type Setup = (typeof SETUPS)[number];

/** The processes (CPU meter groups) that do the work of a request of each set-up. */
export const ANSWERING: Record<Setup, readonly string[]> = {
  bare: ['bare'],
  direct: ['launcher'],
  gateway: ['launcher'],
  'cluster-gateway': ['cluster-gateway', 'launcher'],
  'minimal-proxy': ['minimal-proxy', 'launcher'],
};

export interface PlatformProbeInfo {
  id: string;
  path: string;
  /** The service that answers it: `direct` is this service's own port. */
  service: 'content' | 'identity';
  title: string;
  description: string;
  /** Whether the requests carry the demo admin's session cookie. */
  withCookie: boolean;
  headline: boolean;
  setups: Setup[];
  bodyBytes: number;
}

/** Everything one run measured: platform.json holds exactly this, and the report is rendered from it. */
export interface PlatformRun extends MeasuredRun<Setup> {
  benchmark: 'platform';
  formatVersion: 1;
  probes: PlatformProbeInfo[];
  /** How the cluster gateway was started (its adapters, its upstream), in words. */
  clusterGateway: string;
}

export interface SetupSummary {
  reqPerSec: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  /** CPU of every process answering (ANSWERING), together, per request. */
  cpuUsPerRequest: Spread;
  /** The same, process by process. */
  cpuUsPerRequestBy: Record<string, Spread>;
  databaseCpuUsPerRequest: Spread;
  non2xx: number;
  errors: number;
}

export interface PlatformProbeSummary {
  probe: string;
  throughput: Partial<Record<Setup, SetupSummary>>;
  /** The platform benchmark has no fixed-rate phase; kept for the shared report layout. */
  rates: RateLevelSummary[];
}

/** CPU seconds of the processes answering a round. */
export function answeringSeconds(row: { contender: Setup; cpu: { groups: Record<string, number> } }): number {
  return ANSWERING[row.contender].reduce((total, group) => total + (row.cpu.groups[group] ?? 0), 0);
}

/** Medians (with ranges) of every set-up of one probe at full load. */
export function summarisePlatformProbe(
  run: Pick<PlatformRun, 'throughput'>,
  probe: string,
): PlatformProbeSummary {
  const throughput: PlatformProbeSummary['throughput'] = {};
  for (const setup of SETUPS) {
    const rows = mine(run.throughput, probe, setup);
    if (rows.length === 0) continue;
    const cpuUsPerRequestBy: Record<string, Spread> = {};
    for (const group of ANSWERING[setup]) {
      cpuUsPerRequestBy[group] = spread(
        rows.map((r) => perRequestUs(r.cpu.groups[group] ?? 0, r.result.requests)),
      );
    }
    throughput[setup] = {
      reqPerSec: spread(rows.map((r) => r.result.reqPerSec)),
      p50Ms: spread(rows.map((r) => r.result.latencyMs.p50)),
      p99Ms: spread(rows.map((r) => r.result.latencyMs.p99)),
      cpuUsPerRequest: spread(rows.map((r) => perRequestUs(answeringSeconds(r), r.result.requests))),
      cpuUsPerRequestBy,
      databaseCpuUsPerRequest: spread(
        rows.map((r) => perRequestUs(r.cpu.groups.database ?? 0, r.result.requests)),
      ),
      non2xx: rows.reduce((a, r) => a + r.result.non2xx, 0),
      errors: rows.reduce((a, r) => a + r.result.errors, 0),
    };
  }
  return { probe, throughput, rates: [] };
}

/** A throughput ratio of two set-ups on one probe, with its budget. */
export interface RatioTarget {
  id: string;
  probe: string;
  numerator: Setup;
  denominator: Setup;
  what: string;
  budget: number;
}

const SOURCE = 'issue 10';

/** The ratios the platform is held to, all at maximum throughput, paired by round. */
export const RATIO_TARGETS: readonly RatioTarget[] = [
  {
    id: 'standalone-gateway-over-direct',
    probe: 'page',
    numerator: 'gateway',
    denominator: 'direct',
    what: 'standalone gateway ÷ content direct',
    budget: 0.9,
  },
  {
    id: 'cluster-gateway-over-minimal-proxy',
    probe: 'page',
    numerator: 'cluster-gateway',
    denominator: 'minimal-proxy',
    what: 'cluster gateway ÷ minimal proxy (each in its own process)',
    budget: 1.0,
  },
  {
    id: 'identity-over-bare',
    probe: 'healthz',
    numerator: 'direct',
    denominator: 'bare',
    what: 'identity `/healthz` ÷ bare Node `http` (framework overhead)',
    budget: 0.6,
  },
  {
    id: 'content-over-bare',
    probe: 'page',
    numerator: 'direct',
    denominator: 'bare',
    what: 'content direct ÷ bare Node `http`',
    budget: 0.5,
  },
  {
    id: 'me-gateway-over-direct',
    probe: 'me',
    numerator: 'gateway',
    denominator: 'direct',
    what: '`/api/auth/me` standalone gateway ÷ identity direct',
    budget: 0.9,
  },
];

/** The CPU ceiling of `/api/auth/me` answered by identity directly, in µs of the launcher process per request. */
export const ME_CPU_BUDGET_US = 300;

/** Throughput of `numerator` ÷ `denominator` on a probe, round by round, then the median; undefined when not both ran. */
export function ratioOf(
  run: Pick<PlatformRun, 'throughput'>,
  probe: string,
  numerator: Setup,
  denominator: Setup,
): Spread | undefined {
  const rps = (r: ThroughputRound<Setup>) => r.result.reqPerSec;
  return maybeSpread(paired(run.throughput, probe, numerator, denominator, (x, y) => rps(x) / rps(y)));
}

/** Every target with its verdict: the ratios, then the CPU per request of `/me`. */
export function checkPlatformTargets(run: Pick<PlatformRun, 'throughput'>): TargetCheck[] {
  const checks = RATIO_TARGETS.map((t) =>
    judge(
      {
        id: t.id,
        probe: t.probe,
        what: t.what,
        source: SOURCE,
        unit: '×',
        comparator: '>=',
        budget: t.budget,
      },
      ratioOf(run, t.probe, t.numerator, t.denominator)?.median,
    ),
  );
  const me = summarisePlatformProbe(run, 'me').throughput.direct;
  checks.push(
    judge(
      {
        id: 'me-cpu',
        probe: 'me',
        what: '`/api/auth/me` CPU per request, identity direct (launcher process)',
        source: SOURCE,
        unit: 'µs',
        comparator: '<=',
        budget: ME_CPU_BUDGET_US,
      },
      me?.cpuUsPerRequest.median,
    ),
  );
  return checks;
}
