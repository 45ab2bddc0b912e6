import {
  contenderBullets,
  contenderLabels,
  cpuInShort,
  loadBullets,
  num,
  rateRows,
  renderReport,
  throughputTable,
} from '../lib/report';
import {
  CONTENDERS,
  assessNoise,
  keptUp,
  serverSeconds,
  summariseProbe,
  type ProbeSummary,
  type RateLevelSummary,
} from '../lib/results';
import { BUDGETS, checkTargets, compareRuns, type Change, type ContentRun } from './content-results';

function rateTable(level: RateLevelSummary): string[] {
  const lines = rateRows(level, 'content', true);
  const labels = contenderLabels('content');
  for (const contender of CONTENDERS) {
    const t = level.byContender[contender];
    if (t && !keptUp(t, level.rate)) {
      lines.push('');
      lines.push(
        `${labels[contender]} did not keep up with ${level.rate} req/s (median ${num(t.achievedRate.median)} answered per second): ` +
          'requests queued, and its latencies measure the queue.',
      );
    }
  }
  return lines;
}

function factor(c: Change, digits = 1): string {
  if (!Number.isFinite(c.factor)) return '–';
  return `${num(c.factor, c.factor < 10 ? digits : 0)}×`;
}

/** The before/after tables: medians of two separate runs on the same machine and seed. */
function comparisonSection(before: ContentRun, after: ContentRun): string[] {
  const cmp = compareRuns(before, after);
  const out: string[] = [];
  const when = (run: ContentRun) =>
    `${run.startedAt.slice(0, 16).replace('T', ' ')} UTC, commit ${run.code.commit.slice(0, 10)}${run.code.dirty ? ' with uncommitted changes' : ''}`;
  out.push(
    `Medians of two runs of this script on this machine, each with its own fresh stack and the same seed: ` +
      `*${before.code.label}* (${when(before)}${cmp.before.noisy ? ', a noisy run' : ''}) and *${after.code.label}* (this run, ${when(after)}). ` +
      'Separate runs share no rounds, so these are not paired like the ratios above; CPU per request is the steadiest figure. ' +
      `The *${before.code.label}* run was \`${before.command}\`; all its figures are in content.json under \`before\`.`,
  );
  out.push('');
  out.push(
    `| probe | contender | req/s ${before.code.label} → ${after.code.label} | × | CPU µs/req, answering process | × | CPU µs/req, PostgreSQL |`,
  );
  out.push('|---|---|---|---|---|---|---|');
  for (const c of cmp.throughput) {
    const db =
      c.contender === 'bare'
        ? '–'
        : `${num(c.databaseCpuUsPerRequest.before)} → ${num(c.databaseCpuUsPerRequest.after)}`;
    out.push(
      `| \`${c.probe}\` | ${c.contender} | ${num(c.reqPerSec.before)} → ${num(c.reqPerSec.after)} | ${factor(c.reqPerSec)} | ` +
        `${num(c.serverCpuUsPerRequest.before)} → ${num(c.serverCpuUsPerRequest.after)} | ${factor(c.serverCpuUsPerRequest, 2)} | ${db} |`,
    );
  }
  if (cmp.rates.length > 0) {
    out.push('');
    out.push(
      `| probe | rate | contender | answered req/s ${before.code.label} → ${after.code.label} | p99 ms ${before.code.label} → ${after.code.label} |`,
    );
    out.push('|---|---|---|---|---|');
    for (const r of cmp.rates) {
      out.push(
        `| \`${r.probe}\` | ${r.rate}/s | ${r.contender} | ${num(r.achievedRate.before)} → ${num(r.achievedRate.after)} | ${num(r.p99Ms.before, 2)} → ${num(r.p99Ms.after, 2)} |`,
      );
    }
  }
  return out;
}

/** A few sentences on the headline probe, computed like everything else. */
function inShort(run: ContentRun, s: ProbeSummary): string[] {
  const lines: string[] = [];
  const t = s.throughput;
  const probe = run.probes.find((p) => p.id === s.probe);
  if (t.bare && t.direct && t.gateway) {
    lines.push(
      `- \`GET ${probe?.path ?? s.probe}\` (${num(probe?.bodyBytes ?? 0)} bytes of JSON, ${num(run.seed.posts)} published posts) at full load: ` +
        `${num(t.gateway.reqPerSec.median)} req/s through the gateway, ${num(t.direct.reqPerSec.median)} direct, ${num(t.bare.reqPerSec.median)} from the bare server (medians); ` +
        `gateway ÷ bare ${s.ratios.gatewayOverBare ? num(s.ratios.gatewayOverBare.median, 2) : '–'}.`,
    );
    lines.push(cpuInShort(s, 'content'));
    const ratio = s.ratios.gatewayOverBare?.median;
    if (ratio !== undefined && ratio < BUDGETS.gatewayOverBare) {
      // What the budget means in CPU: the rate it asks for, and the CPU per request that rate leaves.
      const needed = t.bare.reqPerSec.median * BUDGETS.gatewayOverBare;
      lines.push(
        `- ${BUDGETS.gatewayOverBare} of the bare server is ${num(needed)} req/s through the gateway: at most ${num(1e6 / needed)} µs of CPU per request ` +
          `in the launcher process, which runs gateway and content on one event loop. It spends ${num(t.gateway.serverCpuUsPerRequest.median)} µs` +
          (s.gatewayCpuUsPerRequest
            ? `, of which the gateway's proxying is ${num(s.gatewayCpuUsPerRequest.median)} µs and content's own work ${num(t.direct.serverCpuUsPerRequest.median)} µs.`
            : '.'),
      );
    }
  }
  for (const level of s.rates) {
    const g = level.byContender.gateway;
    const d = level.byContender.direct;
    if (!g) continue;
    lines.push(
      `- At ${level.rate} req/s through the gateway: ${num(g.achievedRate.median)} answered per second, p99 ${num(g.p99Ms.median, 2)} ms` +
        (d ? ` (content direct: p99 ${num(d.p99Ms.median, 2)} ms).` : '.'),
    );
  }
  return lines;
}

/** The checked-in report, rendered from the run's JSON alone (which holds the earlier run it is compared with). */
export function renderContentReport(run: ContentRun): string {
  const summaries = run.probes.map((p) => summariseProbe(run, p.id));
  const headlineSummary = summaries.find((x) => run.probes.find((p) => p.id === x.probe)?.headline);
  const afterTargets = [
    "The first two rows are the issue's targets; the last two are ARCHITECTURE.md §9's budgets for any service and route, shown for context.",
    '',
  ];
  if (run.notes?.trim()) afterTargets.push(run.notes.trim(), '');
  if (run.before) afterTargets.push('## Before and after', '', ...comparisonSection(run.before, run), '');
  const measured = [
    `- **Topology**: ${run.topology}`,
    `- **Data**: ${num(run.seed.posts)} published posts in ${run.seed.categories} categories (${num(run.seed.added)} added in ${num(run.seed.seconds, 1)} s). ${run.seed.how}`,
    ...contenderBullets(
      'content',
      "Node's own `http` server answering the exact bytes the endpoint returned (with its ETag and X-Total-Count), by path and query; no framework, no database.",
      ', anonymous',
    ),
    '- **Probes** (every contender answers byte-identical JSON, checked before timing):',
    ...run.probes.map((p) => {
      const headers = Object.entries(p.headers)
        .map(([k, v]) => `\`${k}: ${v}\``)
        .join(', ');
      return `  - \`GET ${p.path}\`${headers ? ` with ${headers}` : ''} (\`${p.id}\`, ${num(p.bodyBytes)} bytes, X-Total-Count ${num(p.totalCount)}): ${p.description}`;
    }),
    ...loadBullets(run.settings, 'on the probes marked for it'),
  ];
  return renderReport(run, {
    title: 'Content benchmark: the public posts list',
    jsonFile: 'content.json',
    provenance: `, commit ${run.code.commit.slice(0, 10)}${run.code.dirty ? ' with uncommitted changes' : ''}`,
    noise: assessNoise(run),
    steadier: 'the ratios',
    inShort: headlineSummary ? inShort(run, headlineSummary) : [],
    checks: checkTargets(run, summaries),
    afterTargets,
    measured,
    summaries,
    probeHeading: (s) => {
      const p = run.probes.find((x) => x.id === s.probe);
      return `\`${s.probe}\`: \`GET ${p?.path ?? s.probe}\`${p?.headline ? ' (headline)' : ''}`;
    },
    throughputTable: (s) =>
      throughputTable(s, {
        service: 'content',
        ratios: ['gatewayOverBare', 'directOverBare', 'gatewayOverDirect'],
      }),
    rateTable,
    serverColumn: { title: 'answering CPU s', seconds: serverSeconds },
  });
}
