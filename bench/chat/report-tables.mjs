// Tables for bench/reports/chat.md from the JSON lines chat.bench.ts writes (one header line per invocation, then
// one load.mjs result per run):
//   node bench/chat/report-tables.mjs bench/reports/chat/a-1000.jsonl [more.jsonl…]
// Prints the peers' own tables (their report.mjs, unchanged: per run, medians per count, p99 ÷ bare per pair, the
// RSS slope), then ours: server CPU per delivery split by process (gateway, chat replicas, Redis) and the
// gateway's share, and the kill test's reconnect figures when there are any.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PEERS = process.env.CHAT_BENCH_PEERS ?? path.resolve(HERE, '../../../shared/bench-peers/chat');

const f = (x, d = 1) =>
  x === null || x === undefined || !Number.isFinite(Number(x)) ? '–' : Number(x).toFixed(d);
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((p, q) => p - q);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function readRuns(files) {
  const lines = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
  return {
    headers: lines.filter((l) => l.kind === 'header'),
    runs: lines.filter((l) => l.kind !== 'header'),
  };
}

/**
 * µs of CPU per delivery: every server process, Redis, and apart the gateways (ours-gw's first pids: as many as
 * the line's `gateways`, one in lines from before --gateways).
 */
function cpuSplit(r) {
  const d = Math.max(1, r.deliveries);
  const us = (s) => (s * 1e6) / d;
  const gateways = r.label.endsWith('ours-gw') ? (r.gateways ?? 1) : 0;
  const gw = r.servers.slice(0, gateways).reduce((sum, s) => sum + (s.cpuSec ?? 0), 0);
  const total = r.serverCpuSec + (r.auxCpuSec || 0);
  return {
    total: us(total),
    servers: us(r.serverCpuSec - gw),
    gateway: us(gw),
    redis: us(r.auxCpuSec || 0),
    gatewayShare: total > 0 ? gw / total : 0,
  };
}

export async function summarize(files) {
  const list = Array.isArray(files) ? files : [files];
  const { runs } = readRuns(list);
  const { summarize: peers } = await import(pathToFileURL(path.join(PEERS, 'report.mjs')).href);
  const out = [peers(runs)];
  const kept = runs.filter((r) => !r.discarded && !(r.suite && r.suite.noisy));
  out.push(
    '',
    '| # | set-up | clients | p99 ms | CPU µs per delivery (all) | of which servers | gateway | Redis | gateway share of CPU | idle RSS MB (servers) | ours: notices / rejected |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|---|---|');
  kept.forEach((r, i) => {
    const c = cpuSplit(r);
    const isGw = r.label.endsWith('ours-gw');
    const notes = r.ours ? `${JSON.stringify(r.ours.notices)} / ${JSON.stringify(r.ours.rejected)}` : '';
    out.push(
      `| ${i + 1} | ${r.label} | ${r.clients} | ${f(r.latencyMs.p99)} | ${f(c.total)} | ${f(c.servers)} | ${isGw ? f(c.gateway) : '–'} | ${r.auxCpuSec ? f(c.redis) : '–'} | ${isGw ? `${f(c.gatewayShare * 100, 0)} %` : '–'} | ${f(r.serverRssIdleKB / 1024)} | ${notes} |`,
    );
  });
  // Our processes' own view of the window (chat.bench.ts windowProbe): the servers' share of the clients' delay.
  const probed = kept.filter((r) => Array.isArray(r.serverWindow));
  if (probed.length) {
    out.push(
      '',
      "| # | set-up | clients | clients' p99 ms | clients' max ms | per process (chat replicas, then the gateway): event-loop delay p99 / max ms (sampled every 10 ms: about 10 is none), GC ms (collections) in the window |",
    );
    out.push('|---|---|---|---|---|---|');
    for (const r of probed) {
      const each = r.serverWindow
        .map((w) =>
          w.error
            ? w.error
            : `${f(w.loopDelayP99Ms)} / ${f(w.loopDelayMaxMs)}, GC ${f(w.gcMs)} (${w.gcCount})${w.scrapeMs ? `, scrapes ${w.scrapeMs.map(f).join(' + ')} ms` : ''}${w.memoryAtStart ? `, at the start RSS ${f(w.memoryAtStart.rssMB)} MB (heap ${f(w.memoryAtStart.heapUsedMB)} used of ${f(w.memoryAtStart.heapTotalMB)}, external ${f(w.memoryAtStart.externalMB)})` : ''}`,
        )
        .join(' · ');
      out.push(
        `| ${kept.indexOf(r) + 1} | ${r.label} | ${r.clients} | ${f(r.latencyMs.p99)} | ${f(r.latencyMs.max)} | ${each} |`,
      );
    }
  }
  // The load generator's own stalls and collections in the window (chat.bench.ts --loadgen-gc): the client's share.
  const gcRuns = kept.filter((r) => r.loadgenGc);
  if (gcRuns.length) {
    out.push(
      '',
      "| # | set-up | clients | clients' p99 / max ms | load generator: loop delay p99 / max ms | its GC in the window: count, total ms, longest (s into the window: ms kind) |",
    );
    out.push('|---|---|---|---|---|---|');
    for (const r of gcRuns) {
      const g = r.loadgenGc;
      const longest = g.longest.map((e) => `${f(e.atS)}: ${f(e.ms)} ${e.kind}`).join(', ');
      out.push(
        `| ${kept.indexOf(r) + 1} | ${r.label} | ${r.clients} | ${f(r.latencyMs.p99)} / ${f(r.latencyMs.max)} | ${f(r.loadgen.loopDelayP99Ms)} / ${f(r.loadgen.loopDelayMaxMs)} | ${g.count}, ${f(g.totalMs)}, ${longest} |`,
      );
    }
  }
  // medians per (clients, set-up)
  const groups = new Map();
  for (const r of kept) {
    const k = `${r.clients}\u0000${r.label}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  out.push(
    '',
    '| clients | set-up | runs | p50 ms | p95 ms | p99 ms | CPU µs per delivery (incl. Redis) | gateway µs | gateway share | lost / dup / reordered (sum) |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const [k, rs] of [...groups].sort(
    (x, y) => Number(x[0].split('\u0000')[0]) - Number(y[0].split('\u0000')[0]),
  )) {
    const [clients, label] = k.split('\u0000');
    const cs = rs.map(cpuSplit);
    const isGw = label.endsWith('ours-gw');
    out.push(
      `| ${clients} | ${label} | ${rs.length} | ${f(median(rs.map((r) => r.latencyMs.p50)))} | ${f(median(rs.map((r) => r.latencyMs.p95)))} | ${f(median(rs.map((r) => r.latencyMs.p99)))} | ${f(median(cs.map((c) => c.total)))} | ${isGw ? f(median(cs.map((c) => c.gateway))) : '–'} | ${isGw ? `${f(median(cs.map((c) => c.gatewayShare)) * 100, 0)} %` : '–'} | ${rs.reduce((s, r) => s + r.lost, 0)} / ${rs.reduce((s, r) => s + r.duplicates, 0)} / ${rs.reduce((s, r) => s + r.reordered, 0)} |`,
    );
  }
  // CPU per second against deliveries per second over the runs of each set-up (least squares): the slope is the
  // marginal CPU of one more delivery, the intercept the CPU it spends whatever the traffic (timers, polling, GC).
  const fits = [];
  for (const label of [...new Set(kept.map((r) => r.label))]) {
    const pts = kept
      .filter((r) => r.label === label && !r.kill)
      .map((r) => [r.deliveriesPerSec, (r.serverCpuSec + (r.auxCpuSec || 0)) / r.durationS]);
    if (new Set(pts.map((p) => p[0])).size < 2) continue;
    const n = pts.length,
      mx = pts.reduce((t, p) => t + p[0], 0) / n,
      my = pts.reduce((t, p) => t + p[1], 0) / n;
    const b =
      pts.reduce((t, p) => t + (p[0] - mx) * (p[1] - my), 0) / pts.reduce((t, p) => t + (p[0] - mx) ** 2, 0);
    fits.push(
      `${label} ${f(b * 1e6)} µs per delivery + ${f((my - b * mx) * 100)} % of a CPU fixed (${n} runs)`,
    );
  }
  if (fits.length)
    out.push(
      '',
      `Server CPU (incl. Redis) against deliveries per second, slope and intercept: ${fits.join('; ')}.`,
    );
  const killed = kept.filter((r) => r.kill);
  if (killed.length) {
    out.push(
      '',
      "| # | set-up | clients | killed after (s into window) | reconnects | reconnect ms p50 / max | all back (ms from first drop) | failures | lost (loader) | gaps in the service's numbering | dup | reordered | p99 ms | max ms | listen backlog | listen overflows / SYN retransmits |",
    );
    out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    killed.forEach((r, i) => {
      const o = r.ours ?? {};
      out.push(
        `| ${i + 1} | ${r.label} | ${r.clients} | ${r.kill.afterS} | ${o.reconnects ?? '–'} | ${o.reconnectMsP50 ?? '–'} / ${o.reconnectMsMax ?? '–'} | ${o.allBackMs ?? '–'} | ${o.reconnectFailures ?? '–'} | ${r.lost} | ${o.seqGaps ?? '–'} | ${r.duplicates} | ${r.reordered} | ${f(r.latencyMs.p99)} | ${f(r.latencyMs.max)} | ${r.listenBacklog ?? '–'} | ${r.tcp ? `${r.tcp.listenOverflows} / ${r.tcp.synRetrans}` : '–'} |`,
      );
    });
  }
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await summarize(process.argv.slice(2))}\n`);
}
