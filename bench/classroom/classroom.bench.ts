// The classroom benchmark (issue #13, Performance): the audio proxy streaming a 10 MB file from a local
// upstream with Range requests, 50 concurrent listeners; proxied throughput ÷ the upstream served directly
// (target ≥ 0.7) and the proxy's RSS growth during the run (target ≤ 20 MB).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import {
  callerPath,
  firstJsonLine,
  REPO_ROOT,
  serviceNodeArgs,
  spawnTypeScript,
  stopChild,
} from '../lib/child-processes';
import { pinBenchScript, planPinning, type Pinning } from '../lib/cpu-pinning';
import { clockTicksPerSecond, describeMachine, loadAverage, type MachineInfo } from '../lib/machine-info';
import { processTicks } from '../lib/process-cpu';
import { positive } from '../lib/bench-options';
import { median, round } from '../lib/stats';
import { audioFile } from './audio-file';
import { renderClassroomReport } from './classroom-report';

const USAGE = `Classroom benchmark: the audio proxy streaming a 10 MB file from a local upstream with Range requests.

  SWC_NODE_PROJECT=tsconfig.runtime.json node -r @swc-node/register bench/classroom/classroom.bench.ts [options]

  --rounds N       rounds of each contender, alternated (default 3)
  --duration S     seconds per round (default 10)
  --warmup S       seconds of warm-up per contender (default 3)
  --listeners N    concurrent listeners (default 50)
  --file-mb N      size of the audio file in MiB (default 10)
  --chunk-kb N     bytes per Range request, KiB (default 1024)
  --out DIR        where classroom.json and classroom.md go (default bench/reports)
  --upstream-on W  load|server: the CPU the stand-in upstream runs on (default load: beside the listeners, as
                   a cloud host is outside the district's server; server: beside the proxy)
  --no-pin         do not pin the servers to CPU 1 and the load to CPU 0 (taskset)
  --cpu-prof DIR   run the proxy with node --cpu-prof, its profile kept in DIR (bench/chat/profile-summary.mjs
                   reads it; the profiler skews CPU, so the report of such a run is not a measurement)
  --floor          a third contender: a bare Node proxy with the same client and streaming, no framework and no
                   checks (bench/classroom/floor-proxy.ts), on the proxy's CPU — the least any Node proxy costs here
  --node-args "…"  extra node flags for the classroom proxy's process (e.g. "--max-semi-space-size=32"), recorded in
                   the report, after the flags the service declares for its process (services/classroom/package.json
                   "district.nodeFlags", which the launcher starts every classroom process with)
  --no-cache       start the classroom proxy with its memory of recent files off (CLASSROOM_AUDIO_PROXY_CACHE_BYTES=0,
                   ADR 0025): every Range request relayed from the upstream, as for a file not kept
  --notes FILE     Markdown shown at the end of the report (what the figures mean; kept in the JSON)
  --report-only    render classroom.md again from the existing classroom.json
`;

export type Contender = 'direct' | 'proxied' | 'floor';

export interface RoundResult {
  contender: Contender;
  round: number;
  seconds: number;
  bytes: number;
  requests: number;
  errors: number;
  mibPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU seconds of the proxy and the upstream during the round (floor rounds: the floor proxy's). */
  proxyCpuSeconds: number;
  upstreamCpuSeconds: number;
  /** The proxy's RSS (MiB) when the round began, and its highest sample during it (floor rounds: the floor's). */
  proxyRssStartMiB: number;
  proxyRssMaxMiB: number;
  /** The classroom proxy's V8 heap in use and ArrayBuffer memory (MiB), highest samples during the round. */
  proxyHeapUsedMaxMiB?: number;
  proxyArrayBuffersMaxMiB?: number;
  /**
   * Its garbage collections during the round: scavenges, mark-compacts, those V8 ran for external (Buffer)
   * memory pressure, and their total duration (ms).
   */
  proxyGc?: { minor: number; major: number; external?: number; ms: number };
}

export interface ClassroomRun {
  generatedAt: string;
  commit: string;
  dirty: boolean;
  minutes: number;
  machine: MachineInfo;
  loadAverageStart: [number, number, number];
  loadAverageEnd: [number, number, number];
  pinning: Pinning;
  settings: {
    rounds: number;
    duration: number;
    warmup: number;
    listeners: number;
    fileBytes: number;
    chunkBytes: number;
    /** Which CPU the upstream was pinned to: the load generator's or the proxy's. */
    upstreamOn: 'load' | 'server';
    /** Whether the floor proxy ran as a third contender. */
    floor?: boolean;
    /** Extra node flags of the classroom proxy's process (--node-args). */
    proxyNodeArgs?: string[];
    /** The proxy ran with its memory of recent files off (--no-cache). */
    noCache?: boolean;
  };
  rounds: RoundResult[];
  /** The proxy's RSS (MiB) after start, after the warm-up (the baseline) and at the end. */
  rss: {
    afterStartMiB: number;
    baselineMiB: number;
    maxMiB: number;
    endMiB: number;
    floorBaselineMiB?: number;
  };
  /** Set when the proxy ran under node --cpu-prof (its figures are then skewed by the profiler). */
  cpuProfile?: boolean;
  /** Markdown from --notes, shown at the end of the report. */
  notes?: string;
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.replace(/\D+/g, '')) / 1024 : NaN;
}

function cpuSeconds(pid: number): number {
  return (processTicks(pid)?.own ?? 0) / clockTicksPerSecond();
}

interface Target {
  origin: string;
  path: string;
  headers: Record<string, string>;
}

/** 50 listeners, each streaming the file in Range chunks one after another (a player reading ahead), for `seconds`. */
async function load(
  agent: Agent,
  target: Target,
  seconds: number,
  listeners: number,
  chunk: number,
  size: number,
) {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let bytes = 0;
  let requests = 0;
  let errors = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: listeners }, async (_, i) => {
      // Listeners start at different places in the file, as different pupils would be.
      let offset = Math.floor((i * size) / listeners / chunk) * chunk;
      while (performance.now() < deadline) {
        const start = offset;
        const end = Math.min(start + chunk - 1, size - 1);
        const t0 = performance.now();
        try {
          const res = await agent.request({
            origin: target.origin,
            path: target.path,
            method: 'GET',
            headers: { ...target.headers, range: `bytes=${start}-${end}` },
          });
          let n = 0;
          for await (const part of res.body) n += (part as Buffer).length;
          if (res.statusCode !== 206 || n !== end - start + 1) errors++;
          bytes += n;
        } catch {
          errors++;
        }
        requests++;
        latencies.push(performance.now() - t0);
        offset = end + 1 >= size ? 0 : end + 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    seconds: elapsed,
    bytes,
    requests,
    errors,
    mibPerSecond: bytes / 1024 ** 2 / elapsed,
    p50Ms: pct(50),
    p99Ms: pct(99),
  };
}

async function verify(agent: Agent, target: Target, audio: Buffer, label: string): Promise<void> {
  for (const [start, end] of [
    [0, 99],
    [audio.length - 1000, audio.length - 1],
  ] as const) {
    const res = await agent.request({
      origin: target.origin,
      path: target.path,
      method: 'GET',
      headers: { ...target.headers, range: `bytes=${start}-${end}` },
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 206 || !body.equals(audio.subarray(start, end + 1))) {
      throw new Error(
        `${label}: bytes ${start}-${end} answered ${res.statusCode} with ${body.length} bytes that differ from the file`,
      );
    }
  }
}

/**
 * The memory lines the proxy prints after its handshake (proxy-server.ts, reportMemory): the highest heap and
 * ArrayBuffer samples and the collections since the last reset.
 */
function followMemory(child: ReturnType<typeof spawnTypeScript>) {
  const mib = (bytes: number) => bytes / 1024 ** 2;
  let heapMax = 0;
  let buffersMax = 0;
  let gc = { minor: 0, major: 0, external: 0, ms: 0 };
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{"memory"')) continue;
      const sample = JSON.parse(line) as {
        memory: { heapUsed: number; arrayBuffers: number };
        gc: { minor: number; major: number; external: number; ms: number };
      };
      heapMax = Math.max(heapMax, mib(sample.memory.heapUsed));
      buffersMax = Math.max(buffersMax, mib(sample.memory.arrayBuffers));
      gc = {
        minor: gc.minor + sample.gc.minor,
        major: gc.major + sample.gc.major,
        external: gc.external + sample.gc.external,
        ms: gc.ms + sample.gc.ms,
      };
    }
  });
  return {
    reset() {
      heapMax = 0;
      buffersMax = 0;
      gc = { minor: 0, major: 0, external: 0, ms: 0 };
    },
    round() {
      return { proxyHeapUsedMaxMiB: heapMax, proxyArrayBuffersMaxMiB: buffersMax, proxyGc: gc };
    },
  };
}

function gitState(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: false };
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      listeners: { type: 'string' },
      'file-mb': { type: 'string' },
      'chunk-kb': { type: 'string' },
      'upstream-on': { type: 'string' },
      out: { type: 'string' },
      'no-pin': { type: 'boolean' },
      'cpu-prof': { type: 'string' },
      floor: { type: 'boolean' },
      'node-args': { type: 'string' },
      'no-cache': { type: 'boolean' },
      notes: { type: 'string' },
      'report-only': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, 'bench', 'reports'));
  const jsonFile = path.join(out, 'classroom.json');
  const mdFile = path.join(out, 'classroom.md');
  const notes = values.notes ? await readFile(callerPath(values.notes), 'utf8') : undefined;
  const profileDir = values['cpu-prof'] ? callerPath(values['cpu-prof']) : undefined;
  if (values['report-only']) {
    const run = JSON.parse(await readFile(jsonFile, 'utf8')) as ClassroomRun;
    if (notes !== undefined) run.notes = notes;
    await writeFile(jsonFile, `${JSON.stringify(run, null, 2)}\n`);
    await writeFile(mdFile, renderClassroomReport(run));
    return;
  }
  const settings = {
    rounds: positive('rounds', values.rounds, 3),
    duration: positive('duration', values.duration, 10),
    warmup: positive('warmup', values.warmup, 3),
    listeners: positive('listeners', values.listeners, 50),
    fileBytes: Math.round(positive('file-mb', values['file-mb'], 10) * 1024 * 1024),
    chunkBytes: Math.round(positive('chunk-kb', values['chunk-kb'], 1024) * 1024),
    upstreamOn: (values['upstream-on'] ?? 'load') as 'load' | 'server',
    floor: values.floor === true,
    proxyNodeArgs: serviceNodeArgs('classroom', values['node-args']),
    ...(values['no-cache'] ? { noCache: true } : {}),
  };
  if (settings.upstreamOn !== 'load' && settings.upstreamOn !== 'server')
    throw new Error('--upstream-on must be load or server');
  const log = (line: string) => process.stderr.write(`[classroom bench] ${line}\n`);
  const began = Date.now();
  const pinning = planPinning(!values['no-pin']);
  const machine = describeMachine();
  const loadAverageStart = loadAverage();
  log(pinBenchScript(pinning));

  const upstreamChild = spawnTypeScript('bench/classroom/upstream-server.ts', [String(settings.fileBytes)], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
    cpus: settings.upstreamOn === 'load' ? pinning.loadCpus : pinning.serverCpus,
  });
  const children: Array<ReturnType<typeof spawnTypeScript>> = [];
  const agents: Agent[] = [];
  try {
    const upstream = await firstJsonLine<{ url: string; pid: number }>(upstreamChild, 30_000);
    const proxyChild = spawnTypeScript('bench/classroom/proxy-server.ts', [upstream.url], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        ...(settings.noCache ? { CLASSROOM_AUDIO_PROXY_CACHE_BYTES: '0' } : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      cpus: pinning.serverCpus,
      nodeArgs: [
        ...settings.proxyNodeArgs,
        ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
      ],
    });
    children.push(proxyChild);
    const proxy = await firstJsonLine<{ url: string; pid: number; cookie: string; link: string }>(
      proxyChild,
      60_000,
    );
    const memory = followMemory(proxyChild);
    log(`upstream ${upstream.url} (pid ${upstream.pid}), proxy ${proxy.url} (pid ${proxy.pid})`);
    let floor: { url: string; pid: number } | undefined;
    if (settings.floor) {
      const floorChild = spawnTypeScript('bench/classroom/floor-proxy.ts', [upstream.url], {
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'inherit'],
        cpus: pinning.serverCpus,
      });
      children.push(floorChild);
      floor = await firstJsonLine<{ url: string; pid: number }>(floorChild, 30_000);
      log(`floor proxy ${floor.url} (pid ${floor.pid})`);
    }
    const contenders: Contender[] = floor ? ['direct', 'proxied', 'floor'] : ['direct', 'proxied'];
    const targets: Record<Contender, Target> = {
      direct: { origin: upstream.url, path: '/file/d/bench-audio/view', headers: {} },
      proxied: {
        origin: proxy.url,
        path: `/api/audio-proxy?url=${encodeURIComponent(proxy.link)}`,
        headers: { cookie: proxy.cookie },
      },
      floor: { origin: floor?.url ?? '', path: '/audio', headers: {} },
    };
    const agentFor = Object.fromEntries(
      contenders.map((c) => [c, new Agent({ connections: settings.listeners, keepAliveTimeout: 60_000 })]),
    ) as Record<Contender, Agent>;
    agents.push(...Object.values(agentFor));
    const audio = audioFile(settings.fileBytes);
    for (const c of contenders) await verify(agentFor[c], targets[c], audio, c);
    const afterStartMiB = rssMiB(proxy.pid);
    for (const c of contenders) {
      log(`warm-up ${c} ${settings.warmup} s`);
      await load(
        agentFor[c],
        targets[c],
        settings.warmup,
        settings.listeners,
        settings.chunkBytes,
        settings.fileBytes,
      );
    }
    const baselineMiB = rssMiB(proxy.pid);
    const floorBaselineMiB = floor ? rssMiB(floor.pid) : undefined;
    let maxMiB = baselineMiB;
    const rounds: RoundResult[] = [];
    for (let r = 0; r < settings.rounds; r++) {
      const order = r % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) {
        const measured = contender === 'floor' ? floor!.pid : proxy.pid;
        memory.reset();
        // The service's RSS, except in floor rounds: the floor proxy's (the service is idle then).
        const rssStart = rssMiB(measured);
        let rssMax = rssStart;
        const sampler = setInterval(() => {
          rssMax = Math.max(rssMax, rssMiB(measured));
        }, 100);
        const cpu0 = { proxy: cpuSeconds(measured), upstream: cpuSeconds(upstream.pid) };
        const result = await load(
          agentFor[contender],
          targets[contender],
          settings.duration,
          settings.listeners,
          settings.chunkBytes,
          settings.fileBytes,
        );
        clearInterval(sampler);
        rssMax = Math.max(rssMax, rssMiB(measured));
        if (measured === proxy.pid) maxMiB = Math.max(maxMiB, rssMax);
        const row: RoundResult = {
          contender,
          round: r + 1,
          ...result,
          proxyCpuSeconds: cpuSeconds(measured) - cpu0.proxy,
          upstreamCpuSeconds: cpuSeconds(upstream.pid) - cpu0.upstream,
          proxyRssStartMiB: rssStart,
          proxyRssMaxMiB: rssMax,
          ...memory.round(),
        };
        rounds.push(row);
        log(
          `round ${r + 1} ${contender}: ${round(row.mibPerSecond, 1)} MiB/s, ${row.requests} requests, ${row.errors} errors, p99 ${round(row.p99Ms, 1)} ms, proxy RSS max ${round(rssMax, 1)} MiB`,
        );
      }
    }
    const endMiB = rssMiB(proxy.pid);
    const run: ClassroomRun = {
      generatedAt: new Date().toISOString(),
      ...gitState(),
      minutes: round((Date.now() - began) / 60_000, 1),
      machine,
      loadAverageStart,
      loadAverageEnd: loadAverage(),
      pinning,
      settings,
      rounds,
      rss: { afterStartMiB, baselineMiB, maxMiB, endMiB, ...(floor ? { floorBaselineMiB } : {}) },
      ...(profileDir ? { cpuProfile: true } : {}),
      ...(notes !== undefined ? { notes } : {}),
    };
    await mkdir(out, { recursive: true });
    await writeFile(jsonFile, `${JSON.stringify(run, null, 2)}\n`);
    await writeFile(mdFile, renderClassroomReport(run));
    const ratio =
      median(rounds.filter((x) => x.contender === 'proxied').map((x) => x.mibPerSecond)) /
      median(rounds.filter((x) => x.contender === 'direct').map((x) => x.mibPerSecond));
    log(
      `proxied ÷ direct ${round(ratio, 2)}; RSS growth ${round(maxMiB - baselineMiB, 1)} MiB; report ${mdFile}`,
    );
  } finally {
    await Promise.all(agents.map((a) => a.close()));
    for (const child of children) await stopChild(child);
    await stopChild(upstreamChild);
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exitCode = 1;
});
