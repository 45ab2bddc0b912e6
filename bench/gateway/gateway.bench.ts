import { mkdir, readFile, writeFile, rm, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { REPO_ROOT, firstJsonLine, spawnTypeScript, stopChild } from '../lib/child-processes';
import { CpuMeter, type CpuGroup, type CpuUsage } from '../lib/cpu-meter';
import { runAtRate, runClosedLoop, type Probe, type ThroughputResult } from '../lib/load-client';
import { clockTicksPerSecond, describeMachine, loadAverage, toolVersion } from '../lib/machine-info';
import { descendantTicks, processTicks } from '../lib/process-cpu';
import { rotate } from '../lib/stats';
import { runWrk } from '../lib/wrk-runner';
import { renderGatewayReport } from './gateway-report';
import { CONTENDERS, type Contender, type GatewayRun, type ProbeInfo, type RateRound, type ThroughputRound } from './gateway-results';
import { startStack, type RunningStack } from './gateway-stack';

const USAGE = `Gateway benchmark: gateway -> identity vs identity direct vs a bare Node http server.

  npm run bench:gateway -w bench -- [options]

  --rounds N            rounds of each phase, contenders alternated (default 3)
  --duration S          seconds per maximum-throughput round (default 10)
  --warmup S            seconds of warm-up per contender and probe (default 5)
  --connections N       connections of the maximum-throughput load (default 50)
  --rate LIST           fixed rates in req/s, the target's first (default 500,100: the
                        second shows the gateway's cost below saturation on a slow machine)
  --rate-duration S     seconds per fixed-rate round (default 10)
  --rate-connections N  most connections the fixed-rate client opens (default 50)
  --probes LIST         comma-separated: me,users,healthz (default all three)
  --tool wrk|undici     closed-loop load generator (default wrk when installed)
  --log-level LEVEL     the launcher's LOG_LEVEL (default info, as npm start)
  --out DIR             where gateway.json and gateway.md go (default bench/reports)
  --keep                keep the launcher's data directory and log
  --report-only         render gateway.md again from the existing gateway.json
`;

const PROBES: Record<string, Omit<ProbeInfo, 'bodyBytes'>> = {
  me: {
    id: 'me',
    path: '/api/auth/me',
    title: 'who am I',
    headline: true,
    contenders: [...CONTENDERS],
    withCookie: true,
    fixedRate: true,
    description:
      'the session check. Per call: the platform guard verifies the ES256 token and checks the session state, ' +
      'then /me verifies it again, checks the state again, reads the user from PostgreSQL and signs a fresh ES256 ' +
      'token into Set-Cookie (the sliding session, by design).',
  },
  users: {
    id: 'users',
    path: '/api/users',
    title: 'admin user list',
    headline: false,
    contenders: [...CONTENDERS],
    withCookie: true,
    fixedRate: true,
    description:
      'a guarded read without re-signing: the guard verifies the token, checks the session state and the admin ' +
      'flag, then one PostgreSQL query lists the users (the demo seed).',
  },
  healthz: {
    id: 'healthz',
    path: '/healthz',
    title: 'liveness',
    headline: false,
    contenders: ['bare', 'direct'],
    withCookie: false,
    // Its budget is a throughput ratio; its latency at a fixed rate would only lengthen the run.
    fixedRate: false,
    description:
      "identity's liveness answer without a cookie: the Nest/Fastify floor (routing, the guard finding no token, " +
      'hooks; not logged). Not through the gateway, which answers /healthz itself.',
  },
};

const ADMIN = { email: 'admin@demo.school', password: 'demo1234' };
const PAUSE_MS = 1000;

interface Options {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  rates: number[];
  rateDurationSeconds: number;
  rateConnections: number;
  probes: string[];
  tool: 'wrk' | 'undici';
  logLevel: string;
  out: string;
  keep: boolean;
  reportOnly: boolean;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got "${value}")`);
  return n;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      rate: { type: 'string' },
      'rate-duration': { type: 'string' },
      'rate-connections': { type: 'string' },
      probes: { type: 'string' },
      tool: { type: 'string' },
      'log-level': { type: 'string' },
      out: { type: 'string' },
      keep: { type: 'boolean' },
      'report-only': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const probes = (values.probes ?? Object.keys(PROBES).join(',')).split(',').map((p) => p.trim()).filter(Boolean);
  const unknown = probes.filter((p) => !PROBES[p]);
  if (unknown.length > 0 || probes.length === 0) {
    throw new Error(`--probes takes a list of ${Object.keys(PROBES).join(', ')} (got "${values.probes}")`);
  }
  const wrkInstalled = toolVersion('wrk') !== undefined;
  const tool = values.tool ?? (wrkInstalled ? 'wrk' : 'undici');
  if (tool !== 'wrk' && tool !== 'undici') throw new Error(`--tool must be wrk or undici (got "${tool}")`);
  if (tool === 'wrk' && !wrkInstalled) throw new Error('wrk is not installed: apt-get install -y wrk, or pass --tool undici');
  return {
    rounds: Math.round(positive('rounds', values.rounds, 3)),
    durationSeconds: positive('duration', values.duration, 10),
    warmupSeconds: positive('warmup', values.warmup, 5),
    connections: Math.round(positive('connections', values.connections, 50)),
    rates: (values.rate ?? '500,100').split(',').map((r) => positive('rate', r.trim(), 500)),
    rateDurationSeconds: positive('rate-duration', values['rate-duration'], 10),
    rateConnections: Math.round(positive('rate-connections', values['rate-connections'], 50)),
    probes,
    tool,
    logLevel: values['log-level'] ?? 'info',
    out: path.resolve(values.out ?? path.join(REPO_ROOT, 'bench/reports')),
    keep: values.keep ?? false,
    reportOnly: values['report-only'] ?? false,
  };
}

async function signIn(gatewayUrl: string): Promise<string> {
  const res = await fetch(`${gatewayUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: gatewayUrl },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 200) throw new Error(`sign-in through the gateway answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('district_session='));
  if (!cookie) throw new Error('sign-in set no district_session cookie');
  return cookie.split(';')[0];
}

async function fetchBody(origin: string, probePath: string, cookie: string | undefined): Promise<string> {
  const res = await fetch(new URL(probePath, origin), { headers: cookie ? { cookie } : {} });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${origin}${probePath} answered ${res.status}: ${body}`);
  return body;
}

/** Checks that every contender answers every probe with the same JSON before anything is timed. */
async function verifyBodies(origins: Record<Contender, string>, probes: string[], cookie: string, expected: Record<string, string>) {
  for (const probe of probes) {
    const { path: probePath, contenders, withCookie } = PROBES[probe];
    for (const contender of contenders) {
      const body = await fetchBody(origins[contender], probePath, withCookie ? cookie : undefined);
      if (body !== expected[probePath]) {
        throw new Error(`${contender} answered ${probePath} with another body:\n${body}\nexpected:\n${expected[probePath]}`);
      }
    }
  }
}

function describeTopology(logLevel: string): string {
  return (
    '`launcher/src/main.ts --target=all` started as `npm start` starts it (standalone): the gateway and identity ' +
    'in one Node process (one event loop; identity on its own loopback port), an embedded PostgreSQL in its own ' +
    `processes, in-process bus and session store. LOG_LEVEL=${logLevel}: each request through the gateway writes ` +
    'one JSON log line from identity and one from the gateway (to a file here).'
  );
}

function progress(message: string): void {
  process.stderr.write(`[bench:gateway] ${message}\n`);
}

function othersCores(cpu: CpuUsage): string {
  return (cpu.wallSeconds > 0 ? cpu.others / cpu.wallSeconds : 0).toFixed(2);
}

async function run(options: Options): Promise<GatewayRun> {
  const machine = describeMachine();
  const loadStart = loadAverage();
  const startedAt = new Date().toISOString();
  const wrkVersion = toolVersion('wrk');
  const throughputTool = options.tool === 'wrk' ? `wrk (${wrkVersion ?? 'unknown version'}, 1 thread)` : 'undici closed loop';
  const undiciVersion = (JSON.parse(await readFile(require.resolve('undici/package.json'), 'utf8')) as { version: string }).version;
  const rateTool = `undici ${undiciVersion} open loop, Node's HdrHistogram (perf_hooks)`;
  progress(`load average ${loadStart.join(', ')} on ${machine.cores} cores; starting the launcher`);

  const stack: RunningStack = await startStack({ logLevel: options.logLevel, keep: options.keep });
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'district-bench-bare-'));
  let bare: ReturnType<typeof spawnTypeScript> | undefined;
  const cleanUp = async () => {
    if (bare) await stopChild(bare, 5000);
    await rm(scratch, { recursive: true, force: true });
    await stack.stop();
    if (options.keep) progress(`kept the launcher's data and log: ${path.dirname(stack.logFile)}`);
  };
  // Ctrl-C must not leave a launcher, an embedded PostgreSQL or a data directory behind.
  const interrupted = (signal: NodeJS.Signals) => {
    progress(`${signal}: stopping the servers`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    progress(`launcher ready: gateway ${stack.gatewayUrl}, identity ${stack.identityUrl} (log ${stack.logFile})`);
    const cookie = await signIn(stack.gatewayUrl);
    const bodies: Record<string, string> = {};
    for (const probe of options.probes) {
      // The body the real endpoint returned, through the gateway where the probe goes through it.
      const { path: probePath, contenders, withCookie } = PROBES[probe];
      const source = contenders.includes('gateway') ? stack.gatewayUrl : stack.identityUrl;
      bodies[probePath] = await fetchBody(source, probePath, withCookie ? cookie : undefined);
    }
    const bodiesFile = path.join(scratch, 'bodies.json');
    await writeFile(bodiesFile, JSON.stringify(bodies));
    bare = spawnTypeScript(path.join(__dirname, 'bare-server.ts'), [bodiesFile], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { url: bareUrl } = await firstJsonLine<{ url: string }>(bare, 30_000);
    const origins: Record<Contender, string> = { bare: bareUrl, direct: stack.identityUrl, gateway: stack.gatewayUrl };
    await verifyBodies(origins, options.probes, cookie, bodies);
    progress('every contender answers the same JSON');

    const barePid = bare.pid as number;
    const groups: CpuGroup[] = [
      { name: 'launcher', ticks: () => processTicks(stack.pid)?.own ?? 0 },
      { name: 'database', ticks: () => descendantTicks(stack.pid) },
      { name: 'bare', ticks: () => processTicks(barePid)?.own ?? 0 },
    ];
    const meter = new CpuMeter(groups, clockTicksPerSecond());
    const probeFor = (probe: string, contender: Contender): Probe => ({
      origin: origins[contender],
      path: PROBES[probe].path,
      headers: PROBES[probe].withCookie ? { cookie } : {},
    });
    const closedLoop = (probe: Probe, seconds: number): Promise<ThroughputResult> =>
      options.tool === 'wrk'
        ? runWrk(probe, { connections: options.connections, durationMs: seconds * 1000, tool: 'wrk' })
        : runClosedLoop(probe, { connections: options.connections, durationMs: seconds * 1000 });

    for (const probe of options.probes) {
      for (const contender of PROBES[probe].contenders) {
        progress(`warm-up ${probe} ${contender} ${options.warmupSeconds} s`);
        await closedLoop(probeFor(probe, contender), options.warmupSeconds);
        await sleep(PAUSE_MS);
      }
    }

    const throughput: ThroughputRound[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const probe of options.probes) {
        for (const contender of rotate(PROBES[probe].contenders, round - 1)) {
          const before = meter.sample();
          const result = await closedLoop(probeFor(probe, contender), options.durationSeconds);
          const cpu = meter.since(before);
          throughput.push({ round, probe, contender, result, cpu });
          progress(
            `max round ${round} ${probe} ${contender}: ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.latencyMs.p50} ms, ` +
              `p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, others ${othersCores(cpu)} cores`,
          );
          if (result.non2xx > 0) throw new Error(`${contender} answered ${result.non2xx} non-2xx responses to ${probe}: the figures would be meaningless`);
          await sleep(PAUSE_MS);
        }
      }
    }

    const fixedRate: RateRound[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const probe of options.probes.filter((p) => PROBES[p].fixedRate)) {
        for (const rate of options.rates) {
          for (const contender of rotate(PROBES[probe].contenders, round - 1)) {
            const before = meter.sample();
            const result = await runAtRate(probeFor(probe, contender), {
              rate,
              durationMs: options.rateDurationSeconds * 1000,
              connections: options.rateConnections,
            });
            const cpu = meter.since(before);
            fixedRate.push({ round, probe, rate, contender, result, cpu });
            progress(
              `rate round ${round} ${probe} ${contender}: ${result.achievedRate.toFixed(0)}/${rate} req/s, ` +
                `p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, ` +
                `unanswered ${result.unanswered}, others ${othersCores(cpu)} cores`,
            );
            await sleep(PAUSE_MS);
          }
        }
      }
    }

    return {
      benchmark: 'gateway',
      formatVersion: 1,
      command: commandLine(),
      startedAt,
      finishedAt: new Date().toISOString(),
      machine,
      loadAverage: { start: loadStart, end: loadAverage() },
      settings: {
        rounds: options.rounds,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        connections: options.connections,
        rates: options.rates,
        rateDurationSeconds: options.rateDurationSeconds,
        rateConnections: options.rateConnections,
        throughputTool,
        rateTool,
        logLevel: options.logLevel,
        probes: options.probes,
      },
      topology: describeTopology(options.logLevel),
      probes: options.probes.map((p) => ({ ...PROBES[p], bodyBytes: Buffer.byteLength(bodies[PROBES[p].path]) })),
      throughput,
      fixedRate,
    };
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
}

function commandLine(): string {
  const args = process.argv.slice(2).filter((a) => a !== '--report-only');
  return `npm run bench:gateway -w bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const jsonFile = path.join(options.out, 'gateway.json');
  const mdFile = path.join(options.out, 'gateway.md');
  const result = options.reportOnly ? (JSON.parse(await readFile(jsonFile, 'utf8')) as GatewayRun) : await run(options);
  await mkdir(options.out, { recursive: true });
  if (!options.reportOnly) await writeFile(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(mdFile, renderGatewayReport(result));
  progress(`wrote ${path.relative(process.cwd(), mdFile)}${options.reportOnly ? '' : ` and ${path.relative(process.cwd(), jsonFile)}`}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
