import {
  contenderBullets,
  cpuInShort,
  loadBullets,
  num,
  rateRows,
  renderReport,
  signed,
  throughputTable,
} from '../lib/report';
import { assessNoise, summariseProbe, type ProbeSummary, type RateLevelSummary } from '../lib/results';
import { checkTargets, identityKeptUp, type GatewayRun } from './gateway-results';

function rateTable(level: RateLevelSummary): string[] {
  const lines = rateRows(level, 'identity', false);
  lines.push('');
  if (level.addedP99Ms) {
    lines.push(
      `Added by the gateway (gateway minus direct, per round, then the median): p50 **${level.addedP50Ms ? signed(level.addedP50Ms.median, 2) : '–'} ms**, ` +
        `p99 **${signed(level.addedP99Ms.median, 2)} ms** (rounds: ${level.addedP99Ms.values.map((v) => signed(v, 2)).join(', ')}).`,
    );
  }
  const gateway = level.byContender.gateway;
  if (identityKeptUp(level) && gateway && gateway.achievedRate.median < level.rate * 0.95) {
    lines.push('');
    lines.push(
      `Identity alone kept up with ${level.rate} req/s, but through the gateway only ${num(gateway.achievedRate.median)} per second were answered: ` +
        'the launcher process (gateway and identity on one event loop) ran out of CPU, and the gateway latencies are its queue.',
    );
  }
  if (level.byContender.direct && !identityKeptUp(level)) {
    lines.push('');
    lines.push(
      `Identity alone did not keep up with ${level.rate} req/s here (median ${num(level.byContender.direct.achievedRate.median)} answered per second): ` +
        'requests queued, and these latencies measure the queue, not the gateway.',
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
    lines.push(cpuInShort(s, 'identity'));
  }
  for (const level of s.rates) {
    const d = level.byContender.direct;
    const g = level.byContender.gateway;
    if (!d || !g) continue;
    lines.push(
      identityKeptUp(level)
        ? `- At ${level.rate} req/s: p99 ${num(d.p99Ms.median, 2)} ms direct, ${num(g.p99Ms.median, 2)} ms through the gateway` +
            (level.addedP99Ms
              ? ` (added p99, paired by round: ${signed(level.addedP99Ms.median, 2)} ms).`
              : '.')
        : `- At ${level.rate} req/s identity alone answered ${num(d.achievedRate.median)} req/s and the gateway path ${num(g.achievedRate.median)}: ` +
            'the rate is beyond this machine, and latencies there are queueing.',
    );
  }
  return lines;
}

/** The checked-in report, rendered from the run's JSON alone. */
export function renderGatewayReport(run: GatewayRun): string {
  const summaries = run.probes.map((p) => summariseProbe(run, p.id));
  const headline = run.probes.find((p) => p.headline)?.id;
  const headlineSummary = summaries.find((x) => run.probes.find((p) => p.id === x.probe)?.headline);
  const checks = checkTargets(run, summaries).sort(
    (a, b) => Number(b.probe === headline) - Number(a.probe === headline),
  );
  const measured = [
    `- **Topology**: ${run.topology}`,
    ...contenderBullets(
      'identity',
      "Node's own `http` server answering the exact JSON body the endpoint returned, by path; no framework, no cookie check, no database.",
    ),
    "- **Probes** (all with the demo admin's session cookie, signed in once through the gateway):",
    ...run.probes.map(
      (p) => `  - \`GET ${p.path}\` (\`${p.id}\`, ${p.bodyBytes} bytes of JSON): ${p.description}`,
    ),
    ...loadBullets(run.settings, 'on the probes through the gateway'),
  ];
  const remark = run.topology.includes('one Node process')
    ? 'Gateway and identity share one event loop here, so every microsecond the gateway spends is one identity cannot.'
    : '';
  return renderReport(run, {
    title: 'Gateway benchmark',
    jsonFile: 'gateway.json',
    noise: assessNoise(run),
    steadier: 'the ratios and differences',
    inShort: headlineSummary ? inShort(run, headlineSummary) : [],
    checks,
    afterTargets:
      headline && run.probes.length > 1
        ? [
            `\`${headline}\` is the headline probe (the issue's); the others are measured beside it to show where the cost is.`,
            '',
          ]
        : [],
    measured,
    summaries,
    probeHeading: (s) => {
      const p = run.probes.find((x) => x.id === s.probe);
      return `\`GET ${p?.path ?? s.probe}\`${p?.headline ? ' (headline)' : ''}`;
    },
    throughputTable: (s) =>
      throughputTable(s, {
        service: 'identity',
        ratios: ['gatewayOverDirect', 'directOverBare', 'gatewayOverBare'],
        remark,
      }),
    rateTable,
    serverColumn: { title: 'launcher CPU s', seconds: (r) => r.cpu.groups.launcher ?? 0 },
  });
}
