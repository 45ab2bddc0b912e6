import { describePinning } from './cpu-pinning';
import {
  CONTENDERS,
  type Contender,
  type MeasuredRun,
  type NoiseSummary,
  type ProbeSummary,
  type RateLevelSummary,
  type RateRound,
  type Ratio,
  type RunSettings,
  type TargetCheck,
  type ThroughputRound,
  type ThroughputSummary,
} from './results';
import type { Spread } from './stats';

export function num(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "1,234 (1,100–1,300)": the median, then the lowest and highest round. */
export function withRange(s: Spread | undefined, digits = 0): string {
  if (!s) return '–';
  if (s.values.length === 1) return num(s.median, digits);
  return `${num(s.median, digits)} (${num(s.min, digits)}–${num(s.max, digits)})`;
}

export function signed(value: number, digits: number): string {
  return `${value >= 0 ? '+' : '−'}${num(Math.abs(value), digits)}`;
}

/** How the report names the contenders when `service` is the one measured. */
export function contenderLabels(service: string): Record<Contender, string> {
  return { bare: 'bare Node `http`', direct: `${service} direct`, gateway: `gateway → ${service}` };
}

const RATIO_LABEL: Record<Ratio, string> = {
  gatewayOverBare: 'gateway ÷ bare',
  directOverBare: 'direct ÷ bare',
  gatewayOverDirect: 'gateway ÷ direct',
};

/** One row of the targets table: the figure, the budget, and met / missed by how much, or why not judged. */
export function describeCheck(c: TargetCheck): string {
  const unit = c.unit === '×' ? '' : ` ${c.unit}`;
  const budget = `${c.comparator === '>=' ? '≥' : '≤'} ${num(c.budget, c.unit === '×' ? 1 : 0)}${unit}`;
  // A figure that cannot be judged is not shown as if it could: the note says why.
  const measured =
    c.measured === undefined || c.verdict === 'not measured' ? '–' : `${num(c.measured, 2)}${unit}`;
  let verdict: string;
  if (c.verdict === 'met') {
    verdict = `**met** (margin ${num(c.margin ?? 0, 2)}${unit})`;
  } else if (c.verdict === 'missed') {
    const short = Math.abs(c.margin ?? 0);
    // A share of the budget says something for a ratio; for a latency or CPU ceiling the plain excess says it better.
    const relative =
      c.unit === '×' && c.budget !== 0 ? ` (${num((short / c.budget) * 100, 0)} % of the budget)` : '';
    verdict = `**missed** by ${num(short, 2)}${unit}${relative}`;
  } else {
    verdict = 'not measured';
  }
  if (c.note) verdict += `: ${c.note}`;
  return `| ${c.what} | \`${c.probe}\` | ${measured} | ${budget} | ${verdict} | ${c.source} |`;
}

export interface ThroughputTableOptions {
  /** The service measured, as the labels and the CPU sentence name it. */
  service: string;
  /** Which throughput ratios the line under the table gives, in that order. */
  ratios: readonly Ratio[];
  /** Said after the gateway's CPU per request, when there is something to add. */
  remark?: string;
}

/** Maximum throughput of every contender on one probe, then the ratios and the CPU the gateway adds. */
export function throughputTable(s: ProbeSummary, options: ThroughputTableOptions): string[] {
  const labels = contenderLabels(options.service);
  const lines = [
    '| contender | req/s | p50 ms | p99 ms | CPU µs/req, answering process | CPU µs/req, PostgreSQL | non-2xx / errors |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const contender of CONTENDERS) {
    const t = s.throughput[contender];
    if (!t) continue;
    const db = contender === 'bare' ? '–' : withRange(t.databaseCpuUsPerRequest);
    lines.push(
      `| ${labels[contender]} | ${withRange(t.reqPerSec)} | ${withRange(t.p50Ms, 1)} | ${withRange(t.p99Ms, 1)} | ${withRange(t.serverCpuUsPerRequest)} | ${db} | ${t.non2xx} / ${t.errors} |`,
    );
  }
  lines.push('');
  const shown = options.ratios
    .filter((ratio) => s.ratios[ratio] !== undefined)
    .map((ratio) => `${RATIO_LABEL[ratio]} **${withRange(s.ratios[ratio], 2)}**`);
  if (shown.length > 0)
    lines.push(`Throughput ratios (per round, then the median; range over rounds): ${shown.join(', ')}.`);
  if (s.gatewayCpuUsPerRequest) {
    const direct = s.throughput.direct?.serverCpuUsPerRequest.median;
    lines.push('');
    lines.push(
      `CPU the gateway adds per request in the launcher process (gateway round minus direct round): **${withRange(s.gatewayCpuUsPerRequest)} µs**` +
        (direct !== undefined
          ? ` (${options.service}'s own work in the same process: ${num(direct)} µs).`
          : '.') +
        (options.remark === undefined ? '' : ` ${options.remark}`),
    );
  }
  return lines;
}

/** The "In short" line on CPU per request at full load, from which the throughput ratios follow. */
export function cpuInShort(s: ProbeSummary, service: string): string {
  const t = s.throughput;
  const figure = (
    summary: ThroughputSummary | undefined,
    pick: 'serverCpuUsPerRequest' | 'databaseCpuUsPerRequest',
  ) => (summary ? num(summary[pick].median) : '–');
  const added = s.gatewayCpuUsPerRequest
    ? `; the gateway adds ${num(s.gatewayCpuUsPerRequest.median)} µs`
    : '';
  return (
    `- CPU per request: ${figure(t.bare, 'serverCpuUsPerRequest')} µs for the bare server, ${figure(t.direct, 'serverCpuUsPerRequest')} µs for ${service} ` +
    `(plus ${figure(t.direct, 'databaseCpuUsPerRequest')} µs in PostgreSQL)${added}. The ratios follow from these.`
  );
}

/** Latencies of every contender at one fixed rate; `withCpu` adds the answering process's CPU per request. */
export function rateRows(level: RateLevelSummary, service: string, withCpu: boolean): string[] {
  const labels = contenderLabels(service);
  const header = [
    'contender',
    'achieved req/s',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'p99.9 ms',
    'max ms',
    ...(withCpu ? ['CPU µs/req'] : []),
  ];
  header.push('non-2xx / errors / unanswered');
  const lines = [`| ${header.join(' | ')} |`, `|${'---|'.repeat(header.length)}`];
  for (const contender of CONTENDERS) {
    const t = level.byContender[contender];
    if (!t) continue;
    const cells = [
      labels[contender],
      withRange(t.achievedRate),
      withRange(t.p50Ms, 2),
      withRange(t.p90Ms, 2),
      withRange(t.p99Ms, 2),
    ];
    cells.push(
      withRange(t.p999Ms, 1),
      withRange(t.maxMs, 1),
      ...(withCpu ? [withRange(t.serverCpuUsPerRequest)] : []),
    );
    cells.push(`${t.non2xx} / ${t.errors} / ${t.unanswered}`);
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines;
}

/** The CPU column of the table of every round: its title, and the seconds it shows for a round. */
export interface ServerColumn<C extends string = Contender> {
  title: string;
  seconds(row: ThroughputRound<C> | RateRound<C>): number;
}

/** Every round of both phases, as measured. */
export function roundsTable<C extends string>(
  run: Pick<MeasuredRun<C>, 'throughput' | 'fixedRate'>,
  server: ServerColumn<C>,
): string[] {
  const lines = [
    `| phase | round | probe | contender | req/s | p50 ms | p99 ms | ${server.title} | PostgreSQL CPU s | others' CPU, cores |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const others = (cpu: { others: number; wallSeconds: number }) =>
    num(cpu.wallSeconds > 0 ? cpu.others / cpu.wallSeconds : 0, 2);
  const rows: Array<[string, ThroughputRound<C> | RateRound<C>, number, number]> = [
    ...run.throughput.map((r): [string, ThroughputRound<C>, number, number] => [
      'max',
      r,
      r.result.reqPerSec,
      1,
    ]),
    ...run.fixedRate.map((r): [string, RateRound<C>, number, number] => [
      `${r.rate}/s`,
      r,
      r.result.achievedRate,
      2,
    ]),
  ];
  for (const [phase, r, perSecond, digits] of rows) {
    lines.push(
      `| ${phase} | ${r.round} | \`${r.probe}\` | ${r.contender} | ${num(perSecond)} | ${num(r.result.latencyMs.p50, digits)} | ${num(r.result.latencyMs.p99, digits)} | ` +
        `${num(server.seconds(r), 1)} | ${num(r.cpu.groups.database ?? 0, 1)} | ${others(r.cpu)} |`,
    );
  }
  return lines;
}

/** The machine, its load, and what other programs took during the measurements. */
export function machineSection(
  run: Pick<MeasuredRun<string>, 'machine' | 'loadAverage' | 'pinning'>,
  noise: NoiseSummary,
): string[] {
  const m = run.machine;
  return [
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${m.cpuModel}, ${m.cores} cores |`,
    `| memory | ${num(m.memoryGiB, 1)} GiB |`,
    `| Node.js | ${m.node} |`,
    `| OS | ${m.os}, kernel ${m.kernel} |`,
    `| load average (1, 5, 15 min) at start | ${run.loadAverage.start.join(', ')} |`,
    `| load average at end (includes this run) | ${run.loadAverage.end.join(', ')} |`,
    `| CPU used by other programs during the measurements | median ${num(noise.othersCores.median, 2)} cores, max ${num(noise.othersCores.max, 2)} (of ${m.cores}) |`,
    `| CPU pinning | ${describePinning(run.pinning)} |`,
    '',
  ];
}

/** The "Contenders" bullet of "What was measured": how the bare server answers, and the service measured. */
export function contenderBullets(service: string, bare: string, gatewaySuffix = ''): string[] {
  const labels = contenderLabels(service);
  return [
    '- **Contenders**, each in its own process, alternated round by round (the order rotates every round, so none always runs first or last):',
    `  - *${labels.bare}*: ${bare}`,
    `  - *${labels.direct}*: ${service}'s Nest/Fastify application on its own loopback port.`,
    `  - *${labels.gateway}*: the same request through the gateway (upstream keep-alive agent)${gatewaySuffix}.`,
  ];
}

/** The bullets of "What was measured" on the load: both phases, and how CPU is read. */
export function loadBullets(set: RunSettings, fixedRateProbes: string): string[] {
  return [
    `- **Maximum throughput**: ${set.throughputTool}, ${set.connections} keep-alive connections, ${set.durationSeconds} s per round, ` +
      `${set.rounds} rounds, after a ${set.warmupSeconds} s warm-up of every contender. Closed loop: its latencies are those of a saturated server.`,
    `- **Fixed rate**: ${set.rateTool} at ${set.rates.join(' and ')} req/s (the target is stated at ${set.rates[0]}), ${set.rateDurationSeconds} s per round, ` +
      `up to ${set.rateConnections} connections, ${set.rounds} rounds, ${fixedRateProbes}. ` +
      'Open loop: latency counts from when each request was due, so queueing behind a slow answer is included (no coordinated omission).',
    "- CPU per request is read from /proc (user + system time) for the answering process, and for the embedded PostgreSQL (the launcher's descendants) separately.",
  ];
}

/** What a probe's sections of the report are drawn from: its figures at full load, and at each fixed rate. */
export interface ReportedProbe {
  throughput: object;
  rates: readonly RateLevelSummary[];
}

/**
 * What a benchmark puts into the report; `renderReport` lays it out the same way for every benchmark. `S` is
 * its per-probe summary and `C` its contenders (bare / direct / gateway unless it has its own set-ups).
 */
export interface ReportLayout<S extends ReportedProbe = ProbeSummary, C extends string = Contender> {
  title: string;
  /** The JSON file the report is rendered from, linked as the raw figures. */
  jsonFile: string;
  /** Said after the run's duration in the first line, e.g. the commit measured. */
  provenance?: string;
  noise: NoiseSummary;
  /** What the noisy-machine warning calls steadier than the absolute figures. */
  steadier: string;
  inShort: string[];
  /** The rows of the targets table, in order. */
  checks: TargetCheck[];
  /** Lines after the targets table: explanations, notes, whole sections. */
  afterTargets: string[];
  /** The bullets of "What was measured". */
  measured: string[];
  summaries: readonly S[];
  probeHeading(summary: S): string;
  throughputTable(summary: S): string[];
  rateTable(level: RateLevelSummary): string[];
  serverColumn: ServerColumn<C>;
}

/** The checked-in report of a run, from its JSON alone and what the benchmark says about it. */
export function renderReport<S extends ReportedProbe = ProbeSummary, C extends string = Contender>(
  run: MeasuredRun<C>,
  layout: ReportLayout<S, C>,
): string {
  const set = run.settings;
  const minutes = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 60_000;
  const out: string[] = [];

  out.push(`# ${layout.title}`);
  out.push('');
  out.push(
    `Generated by \`${run.command}\` on ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC (${num(minutes, 1)} min)${layout.provenance ?? ''}. ` +
      `Raw figures: [${layout.jsonFile}](${layout.jsonFile}). Do not edit by hand: rerun the benchmark.`,
  );
  out.push('');
  if (layout.noise.noisy) {
    out.push(
      `> **Noisy machine.** ${layout.noise.reasons.join('; ')}. Absolute figures are low and spread out; ${layout.steadier} come from contenders ` +
        'run back to back and are steadier, and the CPU-per-request figures are the least affected.',
    );
    out.push('');
  }
  if (layout.inShort.length > 0) out.push('## In short', '', ...layout.inShort, '');

  out.push('## Targets');
  out.push('');
  out.push('| target | probe | measured (median) | budget | verdict | source |');
  out.push('|---|---|---|---|---|---|');
  for (const c of layout.checks) out.push(describeCheck(c));
  out.push('');
  out.push(...layout.afterTargets);
  out.push(...machineSection(run, layout.noise));
  out.push('## What was measured', '', ...layout.measured, '');

  for (const s of layout.summaries) {
    out.push(`## ${layout.probeHeading(s)}`);
    out.push('');
    if (Object.keys(s.throughput).length > 0) {
      out.push(`### Maximum throughput (median of ${set.rounds} rounds, lowest–highest in brackets)`);
      out.push('');
      out.push(...layout.throughputTable(s));
      out.push('');
    }
    for (const level of s.rates) {
      out.push(
        `### Fixed rate, ${level.rate} req/s (median of ${set.rounds} rounds, lowest–highest in brackets)`,
      );
      out.push('');
      out.push(...layout.rateTable(level));
      out.push('');
    }
  }

  out.push('## Every round');
  out.push('');
  out.push(...roundsTable(run, layout.serverColumn));
  out.push('');
  out.push('## Reproduce');
  out.push('');
  out.push('```sh');
  out.push('apt-get install -y wrk   # once; without it the closed loop falls back to undici');
  out.push(run.command);
  out.push('```');
  out.push('');
  return out.join('\n');
}
