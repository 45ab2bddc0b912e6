import type { Spread } from '../lib/stats';
import {
  CONTENDERS,
  assessNoise,
  checkTargets,
  keptUp,
  summariseProbe,
  type Contender,
  type GatewayRun,
  type ProbeSummary,
  type RateLevelSummary,
  type TargetCheck,
} from './gateway-results';

const CONTENDER_LABEL: Record<Contender, string> = {
  bare: 'bare Node `http`',
  direct: 'identity direct',
  gateway: 'gateway → identity',
};

function num(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "1,234 (1,100–1,300)": the median, then the lowest and highest round. */
function withRange(s: Spread | undefined, digits = 0): string {
  if (!s) return '–';
  if (s.values.length === 1) return num(s.median, digits);
  return `${num(s.median, digits)} (${num(s.min, digits)}–${num(s.max, digits)})`;
}

function signed(value: number, digits: number): string {
  return `${value >= 0 ? '+' : '−'}${num(Math.abs(value), digits)}`;
}

function describeCheck(c: TargetCheck): string {
  const digits = 2;
  const budget = `${c.comparator === '>=' ? '≥' : '≤'} ${num(c.budget, c.unit === 'ms' ? 0 : 1)}${c.unit === 'ms' ? ' ms' : ''}`;
  // A figure that cannot be judged is not shown as if it could: the note says why.
  const measured = c.measured === undefined || c.verdict === 'not measured' ? '–' : `${num(c.measured, digits)}${c.unit === 'ms' ? ' ms' : ''}`;
  let verdict: string;
  if (c.verdict === 'met') {
    verdict = `**met** (margin ${num(c.margin ?? 0, digits)}${c.unit === 'ms' ? ' ms' : ''})`;
  } else if (c.verdict === 'missed') {
    const short = Math.abs(c.margin ?? 0);
    // A share of the budget says something for a ratio; for a latency ceiling the plain excess says it better.
    const relative = c.unit !== 'ms' && c.budget !== 0 ? ` (${num((short / c.budget) * 100, 0)} % of the budget)` : '';
    verdict = `**missed** by ${num(short, digits)}${c.unit === 'ms' ? ' ms' : ''}${relative}${c.note ? `: ${c.note}` : ''}`;
  } else {
    verdict = `not measured: ${c.note ?? ''}`;
  }
  return `| ${c.what} | \`${c.probe}\` | ${measured} | ${budget} | ${verdict} | ${c.source} |`;
}

function throughputTable(run: GatewayRun, s: ProbeSummary): string[] {
  const lines = [
    '| contender | req/s | p50 ms | p99 ms | CPU µs/req, answering process | CPU µs/req, PostgreSQL | non-2xx / errors |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const contender of CONTENDERS) {
    const t = s.throughput[contender];
    if (!t) continue;
    const db = contender === 'bare' ? '–' : withRange(t.databaseCpuUsPerRequest);
    lines.push(
      `| ${CONTENDER_LABEL[contender]} | ${withRange(t.reqPerSec)} | ${withRange(t.p50Ms, 1)} | ${withRange(t.p99Ms, 1)} | ${withRange(t.serverCpuUsPerRequest)} | ${db} | ${t.non2xx} / ${t.errors} |`,
    );
  }
  lines.push('');
  const ratios = [
    ['gateway ÷ direct', s.ratios.gatewayOverDirect],
    ['direct ÷ bare', s.ratios.directOverBare],
    ['gateway ÷ bare', s.ratios.gatewayOverBare],
  ] as const;
  const shown = ratios.filter(([, value]) => value !== undefined).map(([label, value]) => `${label} **${withRange(value, 2)}**`);
  if (shown.length > 0) lines.push(`Throughput ratios (per round, then the median; range over rounds): ${shown.join(', ')}.`);
  if (s.gatewayCpuUsPerRequest) {
    const direct = s.throughput.direct?.serverCpuUsPerRequest.median;
    const share = direct ? ` (identity's own work in the same process: ${num(direct)} µs)` : '';
    lines.push('');
    lines.push(
      `CPU the gateway adds per request in the launcher process (gateway round minus direct round): ` +
        `**${withRange(s.gatewayCpuUsPerRequest)} µs**${share}. ${run.topology.includes('one Node process') ? 'Gateway and identity share one event loop here, so every microsecond the gateway spends is one identity cannot.' : ''}`,
    );
  }
  return lines;
}

function rateTable(level: RateLevelSummary): string[] {
  const lines = [
    '| contender | achieved req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | non-2xx / errors / unanswered |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const contender of CONTENDERS) {
    const t = level.byContender[contender];
    if (!t) continue;
    lines.push(
      `| ${CONTENDER_LABEL[contender]} | ${withRange(t.achievedRate)} | ${withRange(t.p50Ms, 2)} | ${withRange(t.p90Ms, 2)} | ${withRange(t.p99Ms, 2)} | ${withRange(t.p999Ms, 1)} | ${withRange(t.maxMs, 1)} | ${t.non2xx} / ${t.errors} / ${t.unanswered} |`,
    );
  }
  lines.push('');
  if (level.addedP99Ms) {
    lines.push(
      `Added by the gateway (gateway minus direct, per round, then the median): p50 **${level.addedP50Ms ? signed(level.addedP50Ms.median, 2) : '–'} ms**, ` +
        `p99 **${signed(level.addedP99Ms.median, 2)} ms** (rounds: ${level.addedP99Ms.values.map((v) => signed(v, 2)).join(', ')}).`,
    );
  }
  const gateway = level.byContender.gateway;
  if (keptUp(level) && gateway && gateway.achievedRate.median < level.rate * 0.95) {
    lines.push('');
    lines.push(
      `Identity alone kept up with ${level.rate} req/s, but through the gateway only ${num(gateway.achievedRate.median)} per second were answered: ` +
        'the launcher process (gateway and identity on one event loop) ran out of CPU, and the gateway latencies are its queue.',
    );
  }
  if (level.byContender.direct && !keptUp(level)) {
    lines.push('');
    lines.push(
      `Identity alone did not keep up with ${level.rate} req/s here (median ${num(level.byContender.direct.achievedRate.median)} answered per second): ` +
        'requests queued, and these latencies measure the queue, not the gateway.',
    );
  }
  return lines;
}

function roundsTable(run: GatewayRun): string[] {
  const lines = [
    '| phase | round | probe | contender | req/s | p50 ms | p99 ms | launcher CPU s | PostgreSQL CPU s | others\' CPU, cores |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const others = (cpu: { others: number; wallSeconds: number }) => num(cpu.wallSeconds > 0 ? cpu.others / cpu.wallSeconds : 0, 2);
  for (const r of run.throughput) {
    lines.push(
      `| max | ${r.round} | \`${r.probe}\` | ${r.contender} | ${num(r.result.reqPerSec)} | ${num(r.result.latencyMs.p50, 1)} | ${num(r.result.latencyMs.p99, 1)} | ${num(r.cpu.groups.launcher ?? 0, 1)} | ${num(r.cpu.groups.database ?? 0, 1)} | ${others(r.cpu)} |`,
    );
  }
  for (const r of run.fixedRate) {
    lines.push(
      `| ${r.rate}/s | ${r.round} | \`${r.probe}\` | ${r.contender} | ${num(r.result.achievedRate)} | ${num(r.result.latencyMs.p50, 2)} | ${num(r.result.latencyMs.p99, 2)} | ${num(r.cpu.groups.launcher ?? 0, 1)} | ${num(r.cpu.groups.database ?? 0, 1)} | ${others(r.cpu)} |`,
    );
  }
  return lines;
}

/** A few sentences on the headline probe, computed like everything else. */
function inShort(run: GatewayRun, s: ProbeSummary): string[] {
  const lines: string[] = [];
  const t = s.throughput;
  const path = run.probes.find((p) => p.id === s.probe)?.path ?? s.probe;
  if (t.bare && t.direct && t.gateway) {
    lines.push(
      `- \`GET ${path}\` at full load: ${num(t.gateway.reqPerSec.median)} req/s through the gateway, ${num(t.direct.reqPerSec.median)} direct, ` +
        `${num(t.bare.reqPerSec.median)} from the bare server (medians).`,
    );
    const added = s.gatewayCpuUsPerRequest ? `; the gateway adds ${num(s.gatewayCpuUsPerRequest.median)} µs` : '';
    lines.push(
      `- CPU per request: ${num(t.bare.serverCpuUsPerRequest.median)} µs for the bare server, ${num(t.direct.serverCpuUsPerRequest.median)} µs for identity ` +
        `(plus ${num(t.direct.databaseCpuUsPerRequest.median)} µs in PostgreSQL)${added}. The ratios follow from these.`,
    );
  }
  for (const level of s.rates) {
    const d = level.byContender.direct;
    const g = level.byContender.gateway;
    if (!d || !g) continue;
    lines.push(
      keptUp(level)
        ? `- At ${level.rate} req/s: p99 ${num(d.p99Ms.median, 2)} ms direct, ${num(g.p99Ms.median, 2)} ms through the gateway` +
            (level.addedP99Ms ? ` (added p99, paired by round: ${signed(level.addedP99Ms.median, 2)} ms).` : '.')
        : `- At ${level.rate} req/s identity alone answered ${num(d.achievedRate.median)} req/s and the gateway path ${num(g.achievedRate.median)}: ` +
            'the rate is beyond this machine, and latencies there are queueing.',
    );
  }
  return lines;
}

/** The checked-in report, rendered from the run's JSON alone. */
export function renderGatewayReport(run: GatewayRun): string {
  const summaries = run.probes.map((p) => summariseProbe(run, p.id));
  const checks = checkTargets(run, summaries);
  const noise = assessNoise(run);
  const set = run.settings;
  const minutes = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 60_000;
  const m = run.machine;
  const out: string[] = [];

  out.push('# Gateway benchmark');
  out.push('');
  out.push(
    `Generated by \`${run.command}\` on ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC (${num(minutes, 1)} min). ` +
      'Raw figures: [gateway.json](gateway.json). Do not edit by hand: rerun the benchmark.',
  );
  out.push('');
  if (noise.noisy) {
    out.push(`> **Noisy machine.** ${noise.reasons.join('; ')}. Absolute figures are low and spread out; the ratios and differences come from contenders run back to back and are steadier, and the CPU-per-request figures are the least affected.`);
    out.push('');
  }

  const headlineSummary = summaries.find((x) => run.probes.find((p) => p.id === x.probe)?.headline);
  const short = headlineSummary ? inShort(run, headlineSummary) : [];
  if (short.length > 0) {
    out.push('## In short');
    out.push('');
    out.push(...short);
    out.push('');
  }

  out.push('## Targets');
  out.push('');
  out.push('| target | probe | measured (median) | budget | verdict | source |');
  out.push('|---|---|---|---|---|---|');
  const headline = run.probes.find((p) => p.headline)?.id;
  for (const c of [...checks].sort((a, b) => Number(b.probe === headline) - Number(a.probe === headline))) out.push(describeCheck(c));
  out.push('');
  if (headline && run.probes.length > 1) {
    out.push(`\`${headline}\` is the headline probe (the issue's); the others are measured beside it to show where the cost is.`);
    out.push('');
  }

  out.push('## Machine');
  out.push('');
  out.push('| | |');
  out.push('|---|---|');
  out.push(`| CPU | ${m.cpuModel}, ${m.cores} cores |`);
  out.push(`| memory | ${num(m.memoryGiB, 1)} GiB |`);
  out.push(`| Node.js | ${m.node} |`);
  out.push(`| OS | ${m.os}, kernel ${m.kernel} |`);
  out.push(`| load average (1, 5, 15 min) at start | ${run.loadAverage.start.join(', ')} |`);
  out.push(`| load average at end (includes this run) | ${run.loadAverage.end.join(', ')} |`);
  out.push(
    `| CPU used by other programs during the measurements | median ${num(noise.othersCores.median, 2)} cores, max ${num(noise.othersCores.max, 2)} (of ${m.cores}) |`,
  );
  out.push('');

  out.push('## What was measured');
  out.push('');
  out.push(`- **Topology**: ${run.topology}`);
  out.push(`- **Contenders**, each in its own process, alternated round by round (the order rotates every round, so none always runs first or last):`);
  out.push(`  - *${CONTENDER_LABEL.bare}*: Node's own \`http\` server answering the exact JSON body the endpoint returned, by path; no framework, no cookie check, no database.`);
  out.push(`  - *${CONTENDER_LABEL.direct}*: identity's Nest/Fastify application on its own loopback port.`);
  out.push(`  - *${CONTENDER_LABEL.gateway}*: the same request through the gateway (upstream keep-alive agent).`);
  out.push('- **Probes** (all with the demo admin\'s session cookie, signed in once through the gateway):');
  for (const p of run.probes) out.push(`  - \`GET ${p.path}\` (\`${p.id}\`, ${p.bodyBytes} bytes of JSON): ${p.description}`);
  out.push(
    `- **Maximum throughput**: ${set.throughputTool}, ${set.connections} keep-alive connections, ${set.durationSeconds} s per round, ` +
      `${set.rounds} rounds, after a ${set.warmupSeconds} s warm-up of every contender. Closed loop: its latencies are those of a saturated server.`,
  );
  out.push(
    `- **Fixed rate**: ${set.rateTool} at ${set.rates.join(' and ')} req/s (the target is stated at ${set.rates[0]}), ${set.rateDurationSeconds} s per round, ` +
      `up to ${set.rateConnections} connections, ${set.rounds} rounds, on the probes through the gateway. ` +
      'Open loop: latency counts from when each request was due, so queueing behind a slow answer is included (no coordinated omission).',
  );
  out.push('- CPU per request is read from /proc (user + system time) for the answering process, and for the embedded PostgreSQL (the launcher\'s descendants) separately.');
  out.push('');

  for (const s of summaries) {
    const p = run.probes.find((x) => x.id === s.probe);
    out.push(`## \`GET ${p?.path ?? s.probe}\`${p?.headline ? ' (headline)' : ''}`);
    out.push('');
    if (Object.keys(s.throughput).length > 0) {
      out.push(`### Maximum throughput (median of ${set.rounds} rounds, lowest–highest in brackets)`);
      out.push('');
      out.push(...throughputTable(run, s));
      out.push('');
    }
    for (const level of s.rates) {
      out.push(`### Fixed rate, ${level.rate} req/s (median of ${set.rounds} rounds, lowest–highest in brackets)`);
      out.push('');
      out.push(...rateTable(level));
      out.push('');
    }
  }

  out.push('## Every round');
  out.push('');
  out.push(...roundsTable(run));
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
