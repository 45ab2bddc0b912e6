import {
  CONTENDERS,
  assessNoise,
  judge,
  keptUp,
  summariseProbe,
  type Contender,
  type MeasuredRun,
  type ProbeSummary,
  type TargetCheck,
} from '../lib/results';

/** The budgets (ARCHITECTURE.md §9, "public posts list, 10,000 posts, via gateway"). */
export const BUDGETS = {
  gatewayOverBare: 0.4,
  p99AtRateMs: 50,
  /** §9's general budgets, shown beside the issue's for the headline probe. */
  directOverBare: 0.6,
  gatewayOverDirect: 0.5,
} as const;

export interface ContentProbeInfo {
  id: string;
  /** Path and query, e.g. `/api/posts/public?limit=20`. */
  path: string;
  title: string;
  description: string;
  /** Request headers sent with every request of the probe (e.g. a cache-bypassing `Cache-Control`). */
  headers: Record<string, string>;
  bodyBytes: number;
  /** The X-Total-Count the service answered. */
  totalCount: number;
  headline: boolean;
  /** Whether the probe runs in the fixed-rate phase. */
  fixedRate: boolean;
}

export interface SeedInfo {
  posts: number;
  added: number;
  categories: number;
  seconds: number;
  how: string;
}

/** The code that was measured: the commit, and whether the working tree had changes on top of it. */
export interface CodeVersion {
  commit: string;
  dirty: boolean;
  /** What the run stands for, e.g. "before" or "after" the optimisation. */
  label: string;
}

/** Everything one run measured: content.json holds exactly this, and the report is rendered from it. */
export interface ContentRun extends MeasuredRun {
  benchmark: 'content';
  formatVersion: 1;
  code: CodeVersion;
  seed: SeedInfo;
  probes: ContentProbeInfo[];
  /** An earlier run (before a change) that the report compares this one with. */
  before?: ContentRun;
  /** Markdown shown in the report under the targets: what changed between the runs. */
  notes?: string;
}

/** The issue's two targets on the headline probe, then §9's general service and gateway budgets beside them. */
export function checkTargets(run: ContentRun, summaries: readonly ProbeSummary[]): TargetCheck[] {
  const headline = run.probes.find((p) => p.headline)?.id;
  const summary = summaries.find((s) => s.probe === headline);
  if (!headline || !summary) return [];
  const targetRate = run.settings.rates[0];
  const level = summary.rates.find((l) => l.rate === targetRate);
  const gateway = level?.byContender.gateway;
  let rateNote: string | undefined;
  if (gateway && !keptUp(gateway, targetRate)) {
    const direct = level?.byContender.direct;
    rateNote =
      `through the gateway only ${gateway.achievedRate.median.toFixed(0)} of the ${targetRate} req/s were answered` +
      (direct ? ` (content direct: ${direct.achievedRate.median.toFixed(0)})` : '') +
      ': requests queued, and the p99 is the queue';
  }
  return [
    judge(
      {
        id: 'gateway-over-bare',
        probe: headline,
        what: 'throughput via the gateway ÷ bare Node http server, same JSON',
        source: 'issue; ARCHITECTURE.md §9',
        unit: '×',
        comparator: '>=',
        budget: BUDGETS.gatewayOverBare,
      },
      summary.ratios.gatewayOverBare?.median,
    ),
    judge(
      {
        id: 'gateway-p99-at-rate',
        probe: headline,
        what: `p99 via the gateway at ${targetRate} req/s`,
        source: 'issue; ARCHITECTURE.md §9',
        unit: 'ms',
        comparator: '<=',
        budget: BUDGETS.p99AtRateMs,
      },
      gateway?.p99Ms.median,
      { note: rateNote },
    ),
    judge(
      {
        id: 'direct-over-bare',
        probe: headline,
        what: 'content endpoint direct ÷ bare Node http server',
        source: 'ARCHITECTURE.md §9 (any service)',
        unit: '×',
        comparator: '>=',
        budget: BUDGETS.directOverBare,
      },
      summary.ratios.directOverBare?.median,
    ),
    judge(
      {
        id: 'gateway-over-direct',
        probe: headline,
        what: 'throughput via the gateway ÷ direct to content',
        source: 'ARCHITECTURE.md §9 (any route)',
        unit: '×',
        comparator: '>=',
        budget: BUDGETS.gatewayOverDirect,
      },
      summary.ratios.gatewayOverDirect?.median,
    ),
  ];
}

/** One figure before and after, and after ÷ before. */
export interface Change {
  before: number;
  after: number;
  factor: number;
}

export interface ProbeComparison {
  probe: string;
  contender: Contender;
  reqPerSec: Change;
  serverCpuUsPerRequest: Change;
  databaseCpuUsPerRequest: Change;
}

export interface RateComparison {
  probe: string;
  rate: number;
  contender: Contender;
  achievedRate: Change;
  p99Ms: Change;
}

export interface RunComparison {
  before: { startedAt: string; code: CodeVersion; noisy: boolean };
  throughput: ProbeComparison[];
  rates: RateComparison[];
}

const change = (before: number, after: number): Change => ({
  before,
  after,
  factor: before > 0 ? after / before : Number.NaN,
});

/**
 * The medians of two runs side by side, for every probe (same id and same request) and contender both
 * measured. Separate runs share no rounds, so these are not paired: CPU per request is the steadiest figure.
 */
export function compareRuns(before: ContentRun, after: ContentRun): RunComparison {
  const throughput: ProbeComparison[] = [];
  const rates: RateComparison[] = [];
  for (const probe of after.probes) {
    const old = before.probes.find((p) => p.id === probe.id);
    if (!old || old.path !== probe.path) continue;
    const b = summariseProbe(before, probe.id);
    const a = summariseProbe(after, probe.id);
    for (const contender of CONTENDERS) {
      const tb = b.throughput[contender];
      const ta = a.throughput[contender];
      if (tb && ta) {
        throughput.push({
          probe: probe.id,
          contender,
          reqPerSec: change(tb.reqPerSec.median, ta.reqPerSec.median),
          serverCpuUsPerRequest: change(tb.serverCpuUsPerRequest.median, ta.serverCpuUsPerRequest.median),
          databaseCpuUsPerRequest: change(
            tb.databaseCpuUsPerRequest.median,
            ta.databaseCpuUsPerRequest.median,
          ),
        });
      }
    }
    for (const levelAfter of a.rates) {
      const levelBefore = b.rates.find((l) => l.rate === levelAfter.rate);
      if (!levelBefore) continue;
      for (const contender of CONTENDERS) {
        const rb = levelBefore.byContender[contender];
        const ra = levelAfter.byContender[contender];
        if (rb && ra) {
          rates.push({
            probe: probe.id,
            rate: levelAfter.rate,
            contender,
            achievedRate: change(rb.achievedRate.median, ra.achievedRate.median),
            p99Ms: change(rb.p99Ms.median, ra.p99Ms.median),
          });
        }
      }
    }
  }
  return {
    before: { startedAt: before.startedAt, code: before.code, noisy: assessNoise(before).noisy },
    throughput,
    rates,
  };
}
