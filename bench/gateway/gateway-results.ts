import {
  CONTENDERS,
  judge,
  keptUp,
  type Contender,
  type MeasuredRun,
  type ProbeSummary,
  type RateLevelSummary,
  type TargetCheck,
} from '../lib/results';

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

/** Everything one run measured: gateway.json holds exactly this, and the report is rendered from it. */
export interface GatewayRun extends MeasuredRun {
  benchmark: 'gateway';
  formatVersion: 1;
  probes: ProbeInfo[];
}

/** Whether identity alone kept up with a rate: otherwise latencies there are queueing, not the gateway. */
export function identityKeptUp(level: RateLevelSummary): boolean {
  return keptUp(level.byContender.direct, level.rate);
}

/** Why the added latency at the target rate cannot be judged, if it cannot; with the figure at a lower rate. */
function rateProblem(summary: ProbeSummary, rate: number): string | undefined {
  const level = summary.rates.find((l) => l.rate === rate);
  if (!level || !level.byContender.direct || !level.byContender.gateway) return 'not part of this run';
  if (identityKeptUp(level)) return undefined;
  const achieved = level.byContender.direct.achievedRate.median;
  const lower = summary.rates.find((l) => l.rate < rate && identityKeptUp(l) && l.addedP99Ms);
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
      judge(
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

/** The two gateway targets, for a probe that went through the gateway. */
function gatewayChecks(run: GatewayRun, summary: ProbeSummary): TargetCheck[] {
  const probe = summary.probe;
  const targetRate = run.settings.rates[0];
  const atTarget = summary.rates.find((l) => l.rate === targetRate);
  const added = judge(
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
    { unjudgeable: rateProblem(summary, targetRate) },
  );
  const throughGateway = atTarget?.byContender.gateway?.achievedRate.median;
  if (added.verdict === 'missed' && throughGateway !== undefined && throughGateway < targetRate * 0.95) {
    added.note =
      `through the gateway only ${throughGateway.toFixed(0)} of the ${targetRate} req/s were answered: requests queued ` +
      'in the launcher process, where gateway and identity share one event loop';
  }
  return [
    judge(
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
