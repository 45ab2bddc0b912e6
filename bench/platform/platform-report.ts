import { num, renderReport, withRange } from '../lib/report';
import { assessNoise } from '../lib/results';
import type { Spread } from '../lib/stats';
import {
  ANSWERING,
  RATIO_TARGETS,
  SETUPS,
  answeringSeconds,
  checkPlatformTargets,
  ratioOf,
  summarisePlatformProbe,
  type PlatformProbeSummary,
  type PlatformRun,
  type Setup,
} from './platform-results';

/** How the report names a set-up on a probe of `service`. */
export function setupLabel(setup: Setup, service: string): string {
  switch (setup) {
    case 'bare':
      return 'bare Node `http`';
    case 'direct':
      return `${service} direct`;
    case 'gateway':
      return `standalone gateway → ${service}`;
    case 'cluster-gateway':
      return `cluster gateway (own process) → ${service}`;
    case 'minimal-proxy':
      return `minimal proxy (own process) → ${service}`;
  }
}

/** Ratios shown under a probe's table besides the targets': how the proxies compare with the service alone. */
const CONTEXT_RATIOS: ReadonlyArray<{ probe: string; numerator: Setup; denominator: Setup }> = [
  { probe: 'page', numerator: 'gateway', denominator: 'bare' },
  { probe: 'page', numerator: 'cluster-gateway', denominator: 'direct' },
  { probe: 'page', numerator: 'minimal-proxy', denominator: 'direct' },
];

const GROUP_LABEL: Record<string, string> = {
  bare: 'bare server',
  launcher: 'launcher',
  'cluster-gateway': 'cluster gateway',
  'minimal-proxy': 'minimal proxy',
};

function throughputTable(run: PlatformRun, s: PlatformProbeSummary): string[] {
  const service = run.probes.find((p) => p.id === s.probe)?.service ?? 'service';
  const lines = [
    '| set-up | req/s | p50 ms | p99 ms | CPU µs/req, answering processes | of which | CPU µs/req, PostgreSQL | non-2xx / errors |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const setup of SETUPS) {
    const t = s.throughput[setup];
    if (!t) continue;
    const parts =
      ANSWERING[setup].length > 1
        ? ANSWERING[setup]
            .map((g) => `${GROUP_LABEL[g] ?? g} ${num(t.cpuUsPerRequestBy[g].median)}`)
            .join(', ')
        : '–';
    const db = setup === 'bare' ? '–' : withRange(t.databaseCpuUsPerRequest);
    lines.push(
      `| ${setupLabel(setup, service)} | ${withRange(t.reqPerSec)} | ${withRange(t.p50Ms, 1)} | ${withRange(t.p99Ms, 1)} | ` +
        `${withRange(t.cpuUsPerRequest)} | ${parts} | ${db} | ${t.non2xx} / ${t.errors} |`,
    );
  }
  const shown = [...RATIO_TARGETS, ...CONTEXT_RATIOS]
    .filter((r) => r.probe === s.probe)
    .map((r) => [r, ratioOf(run, r.probe, r.numerator, r.denominator)] as const)
    .filter((pair): pair is readonly [(typeof pair)[0], Spread] => pair[1] !== undefined)
    .map(
      ([r, ratio]) =>
        `${setupLabel(r.numerator, service)} ÷ ${setupLabel(r.denominator, service)} **${withRange(ratio, 2)}**`,
    );
  if (shown.length > 0) {
    lines.push('');
    lines.push(`Throughput ratios (per round, then the median; range over rounds): ${shown.join('; ')}.`);
  }
  return lines;
}

/** A few sentences computed from the figures, the key ones first. */
function inShort(run: PlatformRun, summaries: readonly PlatformProbeSummary[]): string[] {
  const lines: string[] = [];
  const by = (probe: string) => summaries.find((s) => s.probe === probe)?.throughput;
  const page = by('page');
  const pageInfo = run.probes.find((p) => p.id === 'page');
  if (page?.direct) {
    const figures = (['bare', 'direct', 'gateway', 'cluster-gateway', 'minimal-proxy'] as const)
      .filter((setup) => page[setup])
      .map(
        (setup) =>
          `${setupLabel(setup, 'content')} ${num(page[setup]?.reqPerSec.median ?? 0)} req/s (${num(page[setup]?.cpuUsPerRequest.median ?? 0)} µs CPU)`,
      );
    lines.push(
      `- \`GET ${pageInfo?.path}\` (${num(pageInfo?.bodyBytes ?? 0)} bytes) at full load, medians: ${figures.join(', ')}.`,
    );
  }
  const proxy = page?.['minimal-proxy'];
  const cluster = page?.['cluster-gateway'];
  if (proxy && cluster) {
    lines.push(
      `- In front of content in its own process, the cluster gateway spends ${num(cluster.cpuUsPerRequestBy['cluster-gateway'].median)} µs of CPU per request, ` +
        `the minimal proxy ${num(proxy.cpuUsPerRequestBy['minimal-proxy'].median)} µs.`,
    );
  }
  const me = by('me');
  if (me?.direct) {
    lines.push(
      `- \`GET /api/auth/me\`: ${num(me.direct.cpuUsPerRequest.median)} µs of the launcher's CPU per request direct` +
        (me.gateway ? `, ${num(me.gateway.cpuUsPerRequest.median)} µs through the standalone gateway` : '') +
        ` (plus ${num(me.direct.databaseCpuUsPerRequest.median)} µs in PostgreSQL).`,
    );
  }
  const healthz = by('healthz');
  if (healthz?.bare && healthz.direct) {
    lines.push(
      `- \`/healthz\`: ${num(healthz.direct.cpuUsPerRequest.median)} µs per request in identity, ${num(healthz.bare.cpuUsPerRequest.median)} µs in the bare server.`,
    );
  }
  return lines;
}

/** The checked-in report, rendered from the run's JSON alone. */
export function renderPlatformReport(run: PlatformRun): string {
  const summaries = run.probes.map((p) => summarisePlatformProbe(run, p.id));
  const set = run.settings;
  const measured = [
    `- **Topology**: ${run.topology}`,
    `- **Cluster gateway**: ${run.clusterGateway}`,
    '- **Set-ups**, alternated round by round (the order rotates every round, so none always runs first or last):',
    "  - *bare Node `http`*: Node's own `http` server in its own process answering the exact bytes the service returned (with the ETag and X-Total-Count), by path and query; no framework, no database.",
    "  - *direct*: the service's Nest/Fastify application on its own loopback port inside the standalone launcher.",
    "  - *standalone gateway*: the launcher's gateway, which hands the request to the service in its own process (no loopback hop).",
    "  - *cluster gateway (own process)*: `launcher/src/main.ts` with `TARGET=gateway` and `UPSTREAM_CONTENT` set to content's loopback port in the standalone launcher.",
    '  - *minimal proxy (own process)*: `bench/lib/minimal-proxy.ts`, a plain `http.request` + `pipe` proxy with a keep-alive `http.Agent`, in front of the same port: the cost of the hop itself.',
    '- **Probes** (every set-up answers a byte-identical body, checked before timing):',
    ...run.probes.map(
      (p) =>
        `  - \`GET ${p.path}\` (\`${p.id}\`, ${num(p.bodyBytes)} bytes${p.withCookie ? ", with the demo admin's session cookie" : ''}): ${p.description} ` +
        `Set-ups: ${p.setups.map((s) => setupLabel(s, p.service)).join(', ')}.`,
    ),
    `- **Maximum throughput**: ${set.throughputTool}, ${set.connections} keep-alive connections, ${set.durationSeconds} s per round, ` +
      `${set.rounds} rounds, after a ${set.warmupSeconds} s warm-up of every set-up. Closed loop: its latencies are those of a saturated server. No fixed-rate phase.`,
    '- CPU per request is read from /proc (user + system time) for every process that does the work of a request (for the proxies: the proxy and the launcher ' +
      "where content runs, together and apart), and for the embedded PostgreSQL (the launcher's descendants) separately.",
  ];
  return renderReport(run, {
    title: 'Platform benchmark: the request path, standalone and proxied',
    jsonFile: 'platform.json',
    noise: assessNoise(run),
    steadier: 'the ratios',
    inShort: inShort(run, summaries),
    checks: checkPlatformTargets(run),
    afterTargets: [
      'Ratios are of throughput at full load, computed round by round (the set-ups ran back to back) and then the median.',
      '',
      'Where the time goes, and the cause of each miss: `docs/adr/0016-request-path.md` ("What a request costs in a platform ' +
        'service"). The Node the servers ran on is in the machine table; `bench/reports/node24/platform.md` is the same benchmark on ' +
        "Node 24, the production image's runtime (`--node`).",
      '',
    ],
    measured,
    summaries,
    probeHeading: (s) => {
      const p = run.probes.find((x) => x.id === s.probe);
      return `\`${s.probe}\`: \`GET ${p?.path ?? s.probe}\``;
    },
    throughputTable: (s) => throughputTable(run, s),
    rateTable: () => [],
    serverColumn: { title: 'answering CPU s', seconds: answeringSeconds },
  });
}
