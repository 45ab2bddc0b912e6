import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import {
  REPO_ROOT,
  callerPath,
  freePort,
  serviceNodeArgs,
  spawnTypeScript,
  stopChild,
} from '../lib/child-processes';
import { pinBenchScript, planPinning } from '../lib/cpu-pinning';
import { serviceUrlsOf } from '../lib/launcher-stack';
import {
  ProcessTracker,
  createThrowawayDatabase,
  pin,
  startNats,
  sessionSigner,
  startRedis as startOwnRedis,
  waitHttp,
  writeSessions,
} from '../lib/cluster-infra';
import { describeMachine, loadAverage } from '../lib/machine-info';
import { describePortRange, widenPortRange, WIDE_PORT_RANGE } from '../lib/port-range';

const USAGE = `Chat fan-out benchmark (issue 11 "Performance"): our chat service beside the peers' reference servers
(../shared/bench-peers/chat), one set-up at a time, fresh server processes for every run, set-ups alternated
A, B, C… for every client count, with the peers' load generator (load.mjs) and our adapter (chat/adapters/ours.mjs).

  npm run bench:chat -w bench -- [options]

  --setups LIST       comma-separated, in the order they alternate (default bare,socketio,ours,ours-gw):
                        bare        the peers' bare ws server (1 process)
                        socketio    the peers' socket.io 4 + Redis adapter (2 replicas + Redis)
                        ours        2 chat replicas (launcher, TARGET=chat) + Redis, clients straight to them
                        ours-gw     the same behind the gateway (launcher, TARGET=gateway) in its own process
                        ours-fix    as ours, from a throwaway copy of the sources with --chat-patch applied
                                    (the service's own files are never changed)
                        nest-gw     a minimal Nest app: @WebSocketGateway on @nestjs/platform-ws, bare protocol
                        nest-plain  the same app with the plain ws server under Nest's DI (as the chat service)
  --clients LIST      client counts (default 1000)
  --pairs N           runs per set-up and count (default 3)
  --duration S        measured seconds per run (default 20); --warmup S (default 3)
  --rooms N           rooms (default 20); --rate M msg/s per room (default 1)
  --senders N         ours: sockets the room's sender spreads its messages over (default 2, as in the report's runs:
                      the service's limit was then 5 in any 5 s, which a steady 1 msg/s socket sat on; it is now a
                      token bucket and one socket is enough)
  --no-refs           ours: send messages without a ref (the adapter's refs=0), so nothing is sent again after a
                      rejoin — the protocol before refs, as a control for the kill test
  --no-roster-digest  ours: rejoin without the roster digest (the adapter's roster=0), so every rejoin gets the whole
                      participants list — the protocol before the digest, as a control for the kill test
  --listen-backlog N  ours: the chat replicas' and gateway's LISTEN_BACKLOG (default: the launcher's, 4096); 511,
                      Node's own default, is the control for the kill test's reconnect surge. Every run records the
                      kernel's listen-queue overflows and SYN retransmissions during it (the line's tcp)
  --gateways N        ours-gw: gateway processes in front of the two replicas (default 1), clients dealt out over them
                      and a dropped client reconnecting through the next; each holds two descriptors per client, so
                      at 19,000 clients under a 20,000-file limit it takes two
  --redis-cpus LIST   pin every set-up's Redis there instead of beside the servers (e.g. 0, the load generator's CPU):
                      a diagnosis of what sharing one core with Redis costs, recorded in each line (redisCpus)
  --kill-after S      kill test: SIGKILL the second chat replica S seconds into the measured window; clients
                      reconnect to the other replica and rejoin with since/resume (ours only; default off)
  --chat-patch FILE   the patch ours-fix runs with (needed for ours-fix unless --fix-opt is given;
                      bench/reports/chat/fixes-measured.patch is the one behind the report, landed since)
  --fix-opt K=V       an adapter option (--opt K=V of chat/adapters/ours.mjs) for ours-fix's runs only, repeatable:
                      e.g. --fix-opt reconnect=now alternates the adapter's reconnect modes over the same service.
                      Without --chat-patch, ours-fix runs the repository's own sources
  --loadgen-gc        record the load generator's garbage collections (bench/chat/loadgen-gc.cjs, preloaded) and
                      put those of the measured window in each run's line (loadgenGc): is a client stall its GC?
  --loadgen-prof DIR  run the load generator under node --cpu-prof too, its profile kept in DIR
  --loadgen-node-args=FLAGS  extra Node flags for the load generator, every set-up alike, kept in each line
                      (loadgenNodeArgs). --loadgen-node-args=--max-semi-space-size=64: at 19,000 clients its
                      default young generation promotes ~7 MB/s and a full collection every ~10 s holds its core
                      for 200–400 ms (reports/chat.md, "The load generator's collections")
  --cpu-prof DIR      run the chat replicas and the gateway with node --cpu-prof, profiles kept in DIR (skews CPU)
  --node-args=FLAGS   extra Node flags for the chat replicas and the gateway (e.g. --node-args=--trace-gc)
  --logs DIR          keep the chat replicas' and gateway's logs there (default: the run's scratch, removed)
  --out FILE          JSON lines, one per run (default bench/reports/chat/runs.jsonl)
  --label TEXT        prefix of every run's label
  --peers DIR         the peers' harness (default ../shared/bench-peers/chat)
  --log-level LEVEL   LOG_LEVEL of the launcher processes (default info, as npm start)
  --connect-timeout S seconds load.mjs may spend connecting (default 300); --run-timeout S per run (default 420)
  --idle-pct P        wait until the machine is at most P % of one CPU busy before a run (default 15)…
  --wait-idle S       …but at most S seconds (default 180)
  --noisy-pct P       repeat a run during which other processes used more than P % of a CPU (default 20)…
  --retries N         …at most N times (default 2); the last attempt is kept, marked disturbed
  --port-range R      the load generator's local port range during the suite (default 10000-65535, put back after;
                      keep: the machine's). With Linux's 32768-60999 and 19,000 connections held, each new connect
                      searches long for a free port: 9,500 reconnects cost the load generator 4.8-6.7 s of its core
                      instead of 0.9-1.3 s (npm run bench:reconnect-ports -w bench)
  --no-pin            do not pin (servers on CPU 1, load generator on CPU 0 by default)
`;

const { values: a } = parseArgs({
  options: {
    setups: { type: 'string', default: 'bare,socketio,ours,ours-gw' },
    clients: { type: 'string', default: '1000' },
    pairs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    rooms: { type: 'string', default: '20' },
    rate: { type: 'string', default: '1' },
    'kill-after': { type: 'string', default: '' },
    senders: { type: 'string', default: '2' },
    'no-refs': { type: 'boolean', default: false },
    'no-roster-digest': { type: 'boolean', default: false },
    'listen-backlog': { type: 'string', default: '' },
    gateways: { type: 'string', default: '1' },
    'redis-cpus': { type: 'string', default: '' },
    'cpu-prof': { type: 'string', default: '' },
    'node-args': { type: 'string', default: '' },
    logs: { type: 'string' },
    'chat-patch': { type: 'string' },
    'fix-opt': { type: 'string', multiple: true, default: [] },
    'loadgen-gc': { type: 'boolean', default: false },
    'loadgen-prof': { type: 'string' },
    'loadgen-node-args': { type: 'string', default: '' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench/reports/chat/runs.jsonl') },
    label: { type: 'string', default: '' },
    peers: { type: 'string', default: path.resolve(REPO_ROOT, '../shared/bench-peers/chat') },
    'log-level': { type: 'string', default: 'info' },
    'idle-pct': { type: 'string', default: '15' },
    'wait-idle': { type: 'string', default: '180' },
    'noisy-pct': { type: 'string', default: '20' },
    retries: { type: 'string', default: '2' },
    'run-timeout': { type: 'string', default: '420' },
    'connect-timeout': { type: 'string', default: '300' },
    'no-pin': { type: 'boolean', default: false },
    'port-range': { type: 'string', default: WIDE_PORT_RANGE },
    help: { type: 'boolean', default: false },
  },
});
// npm runs the script in bench/; a relative --out is meant from where npm was called (INIT_CWD).
a.out = callerPath(a.out);
if (a['cpu-prof']) a['cpu-prof'] = callerPath(a['cpu-prof']);
const LOG_DIR = a.logs ? callerPath(a.logs) : undefined;
if (LOG_DIR) mkdirSync(LOG_DIR, { recursive: true });
const SERVER_NODE_ARGS = serviceNodeArgs('chat', a['node-args']);
const LOADGEN_NODE_ARGS = a['loadgen-node-args'].split(/\s+/).filter(Boolean);
if (a.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

type SetupName = 'bare' | 'socketio' | 'ours' | 'ours-gw' | 'ours-fix' | 'nest-gw' | 'nest-plain';
const KNOWN: SetupName[] = ['bare', 'socketio', 'ours', 'ours-gw', 'ours-fix', 'nest-gw', 'nest-plain'];
const setups = a.setups
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean) as SetupName[];
for (const s of setups)
  if (!KNOWN.includes(s)) throw new Error(`unknown set-up ${s}; known: ${KNOWN.join(', ')}`);
const clientCounts = a.clients.split(',').map(Number);
const PAIRS = Number(a.pairs);
const KILL_AFTER = a['kill-after'] === '' ? undefined : Number(a['kill-after']);
const GATEWAYS = Number(a.gateways);
if (!Number.isInteger(GATEWAYS) || GATEWAYS < 1)
  throw new Error(`--gateways takes a whole number of at least 1, not ${a.gateways}`);
const needsOurs = setups.some((s) => s.startsWith('ours'));
const progress = (m: string) => process.stderr.write(`[bench:chat] ${m}\n`);

const pinning = planPinning(!a['no-pin']);
const SERVER_CPUS = pinning.serverCpus;
const LOAD_CPUS = pinning.loadCpus;

// ---------- processes we start (every one is stopped by pid at the end) ----------
const tracker = new ProcessTracker();
const track = (child: ChildProcess) => tracker.track(child);
// --redis-cpus: a diagnosis, not a set-up to compare with the references (they keep Redis beside their replicas).
const REDIS_CPUS = a['redis-cpus'] || SERVER_CPUS;
const startRedis = (scratch: string) => startOwnRedis(tracker, scratch, REDIS_CPUS);

/** A peers' .mjs server (prints READY {"pid"}), pinned to the server CPU. */
async function startPeerServer(
  peersDir: string,
  script: string,
  args: string[],
): Promise<{ child: ChildProcess; pid: number }> {
  const argv = pin(SERVER_CPUS, [process.execPath, script, ...args]);
  const child = track(spawn(argv[0], argv.slice(1), { cwd: peersDir, stdio: ['ignore', 'pipe', 'pipe'] }));
  return { child, pid: await readyLine(child) };
}

/** A TypeScript server of ours (the Nest reference) that prints READY {"pid"}. */
async function startTsServer(file: string, args: string[]): Promise<{ child: ChildProcess; pid: number }> {
  const child = track(
    spawnTypeScript(file, args, {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
      cpus: SERVER_CPUS,
    }),
  );
  return { child, pid: await readyLine(child) };
}

function readyLine(child: ChildProcess): Promise<number> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-3000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no READY within 60 s: ${stderr}`)), 60_000);
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    rl.on('line', (line) => {
      const m = /^READY (.*)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(Number((JSON.parse(m[1]) as { pid: number }).pid));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before READY: ${stderr}`));
    });
  });
}

// ---------- the chat service's shared pieces: keys, NATS, a throwaway database, rooms, sessions ----------
interface OursInfra {
  publicKeyPem: string;
  natsUrl: string;
  databaseUrl: string;
  databaseName: string;
  setupFile: string;
  userIds: string[];
  stop(): Promise<void>;
}

async function startOursInfra(scratch: string, maxClients: number, rooms: number): Promise<OursInfra> {
  const signer = sessionSigner();
  const { publicKeyPem } = signer;
  const stops: Array<() => Promise<void> | void> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    // NATS: our own server with JetStream in the scratch directory, on the server CPU.
    const nats = await startNats(tracker, scratch, SERVER_CPUS);
    stops.push(() => nats.stop());
    // A throwaway database on the local PostgreSQL (dropped at the end).
    const database = await createThrowawayDatabase('bench_chat', progress);
    stops.push(() => database.drop());
    const { name: databaseName, url: databaseUrl } = database;

    // Users: one approved teacher per client (teachers join any active room: no invite list to read per join).
    const userIds: string[] = [];
    const signed: string[] = [];
    for (let i = 0; i < maxClients; i++) {
      const id = randomUUID();
      userIds.push(id);
      const token = await signer.sign({
        sub: id,
        tv: 1,
        role: 'teacher',
        approved: true,
        isAdmin: false,
        name: `Load ${i}`,
        username: `load${i}`,
        email: `load${i}@bench.test`,
      });
      signed.push(token);
    }
    const infra: OursInfra = {
      publicKeyPem,
      natsUrl: nats.url,
      databaseUrl,
      databaseName,
      setupFile: path.join(scratch, 'ours-setup.json'),
      userIds,
      stop,
    };

    // Migrations: one replica started once (not measured); then the rooms, as the admin API would store them.
    const redis = await startRedis(scratch);
    const prep = await startChatReplica(infra, redis.url, scratch, 'prep', 'http://127.0.0.1:1');
    await prep.stop();
    redis.stop();
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const roomIds: Record<string, string> = {};
    for (let r = 0; r < rooms; r++) {
      const rows = (
        await db.query(
          `INSERT INTO chat.chatrooms (name, description, is_active) VALUES ($1, $2, true) RETURNING id`,
          [`Bench room ${r}`, 'chat benchmark'],
        )
      ).rows as { id: string }[];
      roomIds[`room-${r}`] = rows[0].id;
    }
    await db.end();
    writeFileSync(infra.setupFile, JSON.stringify({ tokens: signed, rooms: roomIds }));
    progress(
      `chat infra: NATS ${infra.natsUrl}, database ${databaseName}, ${rooms} rooms, ${maxClients} signed sessions`,
    );
    return infra;
  } catch (error) {
    await stop();
    throw error;
  }
}

interface Launched {
  child: ChildProcess;
  pid: number;
  port: number;
  log: string;
  stop(): Promise<void>;
}

function launcherEnv(extra: Record<string, string>, scratch: string, name: string): NodeJS.ProcessEnv {
  const dataDir = path.join(scratch, `data-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const backlog = a['listen-backlog'] ? { LISTEN_BACKLOG: a['listen-backlog'] } : {};
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: process.env.LANG,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: 'false',
    LOG_LEVEL: a['log-level'],
    ...backlog,
    ...extra,
  };
}

/** `launcher/src/main.ts` of `root` (the repository, or ours-fix's patched copy) as npm start runs it, pinned. */
async function startLauncherProcess(
  env: NodeJS.ProcessEnv,
  scratch: string,
  name: string,
  port: number,
  ready: () => Promise<void>,
  root = REPO_ROOT,
): Promise<Launched> {
  const log = path.join(LOG_DIR ?? scratch, `${name}.log`);
  const fd = openSync(log, 'a');
  const prof = a['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', a['cpu-prof']] : [];
  const argv = pin(SERVER_CPUS, [
    process.execPath,
    ...SERVER_NODE_ARGS,
    ...prof,
    '-r',
    '@swc-node/register',
    path.join(root, 'launcher/src/main.ts'),
  ]);
  const child = track(
    spawn(argv[0], argv.slice(1), {
      cwd: root,
      env: { ...env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.runtime.json') },
      stdio: ['ignore', fd, fd],
    }),
  );
  const stop = async () => {
    await stopChild(child, 15_000);
    closeSync(fd);
  };
  try {
    await ready();
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, pid: child.pid as number, port, log, stop };
}

async function startChatReplica(
  infra: OursInfra,
  redisUrl: string,
  scratch: string,
  name: string,
  publicUrl: string,
  root = REPO_ROOT,
): Promise<Launched> {
  const port = await freePort();
  const env = launcherEnv(
    {
      TARGET: 'chat',
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      DATABASE_URL: infra.databaseUrl,
      NATS_URL: infra.natsUrl,
      REDIS_URL: redisUrl,
      AUTH_PUBLIC_KEY: infra.publicKeyPem,
    },
    scratch,
    name,
  );
  const log = path.join(LOG_DIR ?? scratch, `${name}.log`);
  return startLauncherProcess(
    env,
    scratch,
    name,
    port,
    () => waitHttp(`http://127.0.0.1:${port}/readyz`, (s) => s === 200, 120_000, undefined, log),
    root,
  );
}

/**
 * A gateway process on `port` in front of the chat replicas. Its public address is its own: a gateway answers only
 * requests for its PUBLIC_URL's host (421 otherwise), and the load generator reaches each gateway at its port.
 */
async function startGateway(
  infra: OursInfra,
  redisUrl: string,
  scratch: string,
  port: number,
  replicas: number[],
): Promise<Launched> {
  const env = launcherEnv(
    {
      TARGET: 'gateway',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NATS_URL: infra.natsUrl,
      REDIS_URL: redisUrl,
      AUTH_PUBLIC_KEY: infra.publicKeyPem,
      UPSTREAM_CHAT: replicas.map((p) => `http://127.0.0.1:${p}`).join(','),
      WEB_DIST: path.join(scratch, 'no-web-build'),
    },
    scratch,
    `gateway-${port}`,
  );
  const log = path.join(LOG_DIR ?? scratch, `gateway-${port}.log`);
  return startLauncherProcess(env, scratch, `gateway-${port}`, port, () =>
    waitHttp(
      `http://127.0.0.1:${port}/metrics`,
      (s, body) =>
        s === 200 &&
        serviceUrlsOf(body, ['chat']) !== undefined &&
        (body.match(/gateway_upstream_up\{service="chat"[^}]*\} 1/g) ?? []).length === replicas.length,
      120_000,
      undefined,
      log,
    ),
  );
}

// ---------- our servers' own view of the measured window ----------
const metricsOf = (ports: number[]) => ports.map((p) => `http://127.0.0.1:${p}/metrics`);

/** One scrape's figures: prom-client's event-loop delay since the last scrape (it resets on each), and GC totals. */
interface Scrape {
  lagP99Ms: number;
  lagMaxMs: number;
  gcSeconds: number;
  gcCount: number;
  /** How long the scrape took, request to last byte (ms): its own cost to the replica's loop shows here. */
  tookMs: number;
  /** Memory at the scrape (MB): resident, V8 heap used and reserved, and off-heap (Buffers). */
  memory: { rssMB: number; heapUsedMB: number; heapTotalMB: number; externalMB: number };
}

/** The sum of a metric's samples (over its labels); NaN when the process does not export it. */
function metricValue(body: string, name: string): number {
  let total = Number.NaN;
  for (const m of body.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'gm')))
    total = (Number.isNaN(total) ? 0 : total) + Number(m[1]);
  return total;
}

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

async function scrape(url: string): Promise<Scrape | string> {
  try {
    const t0 = performance.now();
    const body = await (await fetch(url, { signal: AbortSignal.timeout(5000) })).text();
    const tookMs = Math.round((performance.now() - t0) * 10) / 10;
    return {
      tookMs,
      memory: {
        rssMB: mb(metricValue(body, 'process_resident_memory_bytes')),
        heapUsedMB: mb(metricValue(body, 'nodejs_heap_size_used_bytes')),
        heapTotalMB: mb(metricValue(body, 'nodejs_heap_size_total_bytes')),
        externalMB: mb(metricValue(body, 'nodejs_external_memory_bytes')),
      },
      lagP99Ms: metricValue(body, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      lagMaxMs: metricValue(body, 'nodejs_eventloop_lag_max_seconds') * 1000,
      gcSeconds: metricValue(body, 'nodejs_gc_duration_seconds_sum'),
      gcCount: metricValue(body, 'nodejs_gc_duration_seconds_count'),
    };
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

interface WindowFigures {
  url: string;
  error?: string;
  loopDelayP99Ms?: number;
  loopDelayMaxMs?: number;
  gcMs?: number;
  gcCount?: number;
  /** The two scrapes' durations (ms): at the window's start and a second before its end. */
  scrapeMs?: [number, number];
  /** Memory at the window's start, after the join phase (what the load generator's idle RSS reads). */
  memoryAtStart?: Scrape['memory'];
}

/**
 * What each of our processes says about the measured window: its longest event-loop delay and p99 (a scrape at the
 * window's start resets prom-client's histogram, the one a second before its end reads it; it samples every 10 ms,
 * so about 10 means no delay) and the time its collections took.
 * Against the clients' p99 this is the servers' own share of the delay, the rest being the load generator's and the
 * kernel's. The scrapes are a few KB each, twice per run.
 */
async function windowProbe(urls: string[], startInMs: number, lengthMs: number): Promise<WindowFigures[]> {
  // Unref'd: a run that ends early leaves nothing here holding the process.
  await sleep(startInMs, undefined, { ref: false });
  const before = await Promise.all(urls.map(scrape));
  // A second before the window ends: at its end the clients leave at once, and a replica telling 950 members of
  // each departure answers nothing else for seconds.
  await sleep(Math.max(1000, lengthMs - 1000), undefined, { ref: false });
  return Promise.all(
    urls.map(async (url, i): Promise<WindowFigures> => {
      const start = before[i];
      const end = await scrape(url);
      if (typeof start === 'string') return { url, error: `no metrics at the window's start (${start})` };
      if (typeof end === 'string') return { url, error: `no metrics at the window's end (${end})` };
      if (Number.isNaN(end.lagMaxMs)) return { url, error: 'no event-loop metrics' };
      return {
        url,
        loopDelayP99Ms: Math.round(end.lagP99Ms * 10) / 10,
        loopDelayMaxMs: Math.round(end.lagMaxMs * 10) / 10,
        gcMs: Math.round((end.gcSeconds - start.gcSeconds) * 10000) / 10,
        gcCount: end.gcCount - start.gcCount,
        scrapeMs: [start.tookMs, end.tookMs],
        memoryAtStart: start.memory,
      };
    }),
  );
}

/** The load generator's collections during the window: how many, their total and the longest (ms). */
function gcInWindow(all: Array<[number, number, string]>, from: number, to: number) {
  const inWindow = all.filter(([at]) => at >= from && at < to);
  const longest = [...inWindow]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 5)
    .map(([at, ms, kind]) => ({ atS: Math.round((at - from) / 100) / 10, ms, kind }));
  return {
    count: inWindow.length,
    totalMs: Math.round(inWindow.reduce((sum, [, ms]) => sum + ms, 0)),
    longest,
  };
}

// ---------- one set-up's servers ----------
interface Running {
  urls: string[];
  pids: number[];
  auxPids: number[];
  adapter: string;
  opts: string[];
  /** The chat replica the kill test stops (ours only). */
  victim?: ChildProcess;
  /** Our processes' /metrics (chat replicas, then the gateway when it is in the path): their window is read there. */
  metricsUrls?: string[];
  stop(): Promise<void>;
}

async function startSetup(
  setup: SetupName,
  peersDir: string,
  scratch: string,
  infra: OursInfra | undefined,
): Promise<Running> {
  const stops: Array<() => Promise<void> | void> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    if (setup === 'bare') {
      const port = await freePort();
      const s = await startPeerServer(peersDir, 'bare-ws-server.mjs', ['--port', String(port)]);
      stops.push(() => stopChild(s.child, 10_000));
      return {
        urls: [`ws://127.0.0.1:${port}`],
        pids: [s.pid],
        auxPids: [],
        adapter: 'bare',
        opts: [],
        stop,
      };
    }
    if (setup === 'nest-gw' || setup === 'nest-plain') {
      const port = await freePort();
      const s = await startTsServer(path.join(__dirname, 'nest-ws-server.ts'), [
        '--port',
        String(port),
        '--mode',
        setup === 'nest-gw' ? 'gateway' : 'plain',
      ]);
      stops.push(() => stopChild(s.child, 10_000));
      return {
        urls: [`ws://127.0.0.1:${port}`],
        pids: [s.pid],
        auxPids: [],
        adapter: 'bare',
        opts: [],
        stop,
      };
    }
    const redis = await startRedis(scratch);
    stops.push(() => redis.stop());
    if (setup === 'socketio') {
      const urls: string[] = [];
      const pids: number[] = [];
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        const s = await startPeerServer(peersDir, 'socketio-redis-server.mjs', [
          '--port',
          String(port),
          '--redis',
          redis.url,
        ]);
        stops.push(() => stopChild(s.child, 10_000));
        urls.push(`http://127.0.0.1:${port}`);
        pids.push(s.pid);
      }
      return { urls, pids, auxPids: [redis.pid], adapter: 'socketio', opts: [], stop };
    }
    if (!infra) throw new Error('no chat infra');
    await writeSessions(redis.url, infra.userIds);
    const gatewayPort = await freePort();
    const publicUrl = `http://127.0.0.1:${gatewayPort}`;
    // One after the other: the first runs the (already applied) migrations alone.
    const root = setup === 'ours-fix' ? patchedCopy(scratch) : REPO_ROOT;
    const r1 = await startChatReplica(infra, redis.url, scratch, `chat-1-${gatewayPort}`, publicUrl, root);
    stops.push(() => r1.stop());
    const r2 = await startChatReplica(infra, redis.url, scratch, `chat-2-${gatewayPort}`, publicUrl, root);
    stops.push(() => r2.stop());
    const replicaUrls = [r1.port, r2.port].map((p) => `ws://127.0.0.1:${p}/ws`);
    const opts = [`setup=${infra.setupFile}`, `senders=${a.senders}`, 'timeoutMs=60000'];
    if (a['no-refs']) opts.push('refs=0');
    if (a['no-roster-digest']) opts.push('roster=0');
    if (setup === 'ours-fix') opts.push(...a['fix-opt']);
    if (setup === 'ours' || setup === 'ours-fix') {
      if (KILL_AFTER !== undefined) opts.push(`failover=${replicaUrls.join(',')}`);
      return {
        urls: replicaUrls,
        pids: [r1.pid, r2.pid],
        auxPids: [redis.pid],
        adapter: path.join(__dirname, 'adapters/ours.mjs'),
        opts,
        victim: r2.child,
        metricsUrls: metricsOf([r1.port, r2.port]),
        stop,
      };
    }
    // Several gateways, as a load balancer spreads clients over the gateway pods: the load generator deals its
    // clients out over them, and a dropped client reconnects through the next one.
    const gateways: Launched[] = [];
    for (let i = 0; i < GATEWAYS; i++) {
      const gw = await startGateway(infra, redis.url, scratch, i === 0 ? gatewayPort : await freePort(), [
        r1.port,
        r2.port,
      ]);
      stops.push(() => gw.stop());
      gateways.push(gw);
    }
    const urls = gateways.map((gw) => `ws://127.0.0.1:${gw.port}/ws`);
    if (KILL_AFTER !== undefined)
      opts.push(`failover=${(urls.length > 1 ? urls : [urls[0], urls[0]]).join(',')}`);
    return {
      urls,
      pids: [...gateways.map((gw) => gw.pid), r1.pid, r2.pid],
      auxPids: [redis.pid],
      adapter: path.join(__dirname, 'adapters/ours.mjs'),
      opts,
      victim: r2.child,
      metricsUrls: metricsOf([r1.port, r2.port, ...gateways.map((gw) => gw.port)]),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * ours-fix: a copy of what the launcher runs (launcher, libs, services, gateway, the tsconfigs) with the patch
 * applied, under the scratch directory; its packages come from the repository's node_modules. Made once.
 */
let patchedRoot: string | undefined;
function patchedCopy(scratch: string): string {
  if (patchedRoot) return patchedRoot;
  if (!a['chat-patch'] && a['fix-opt'].length > 0) return REPO_ROOT; // only the adapter's options differ
  const root = path.join(scratch, 'patched');
  mkdirSync(root, { recursive: true });
  for (const part of [
    'launcher',
    'libs',
    'services',
    'gateway',
    'package.json',
    'tsconfig.base.json',
    'tsconfig.runtime.json',
  ]) {
    const r = spawnSync('cp', ['-a', path.join(REPO_ROOT, part), root]);
    if (r.status !== 0) throw new Error(`copying ${part} failed`);
  }
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  if (!a['chat-patch']) throw new Error('ours-fix needs --chat-patch FILE');
  const applied = spawnSync('patch', ['-p1', '-i', path.resolve(a['chat-patch'])], {
    cwd: root,
    encoding: 'utf8',
  });
  if (applied.status !== 0) throw new Error(`the patch does not apply: ${applied.stdout}${applied.stderr}`);
  progress(`ours-fix runs from ${root} with ${a['chat-patch']} applied`);
  patchedRoot = root;
  return root;
}

// ---------- machine idle check (as the peers' suite) ----------
function busyJiffies(): number {
  const n = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return n[0] + n[1] + n[2] + n[5] + n[6] + n[7];
}
async function waitIdle(): Promise<{ waitedS: number; busyPct: number }> {
  const t0 = Date.now();
  let pct: number;
  for (;;) {
    const b0 = busyJiffies();
    await sleep(2000);
    pct = (busyJiffies() - b0) / 2;
    if (pct <= Number(a['idle-pct']) || Date.now() - t0 > Number(a['wait-idle']) * 1000) break;
    progress(`machine busy ${pct.toFixed(0)} % of one CPU (not us); waiting…`);
  }
  return { waitedS: Math.round((Date.now() - t0) / 1000), busyPct: Math.round(pct) };
}

// ---------- the load generator (the peers' load.mjs, pinned to the load CPU) ----------
interface LoadResult {
  code: number | null;
  json: Record<string, unknown> | null;
  oursStats?: unknown;
  /** The load generator's collections, [epoch ms, ms, kind] (--loadgen-gc). */
  gc?: Array<[number, number, string]>;
}

function runLoad(
  peersDir: string,
  setup: SetupName,
  running: Running,
  clients: number,
  onConnected: () => void,
): Promise<LoadResult> {
  const argv = [
    process.execPath,
    '--max-old-space-size=8192',
    ...LOADGEN_NODE_ARGS,
    ...(a['loadgen-gc'] ? ['-r', path.join(__dirname, 'loadgen-gc.cjs')] : []),
    ...(a['loadgen-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(a['loadgen-prof'])] : []),
    'load.mjs',
    '--adapter',
    running.adapter,
    '--urls',
    running.urls.join(','),
    '--pids',
    running.pids.join(','),
    ...(running.auxPids.length ? ['--aux-pids', running.auxPids.join(',')] : []),
    '--clients',
    String(clients),
    '--rooms',
    a.rooms,
    '--rate',
    a.rate,
    '--duration',
    a.duration,
    '--warmup',
    a.warmup,
    '--connect-timeout',
    a['connect-timeout'],
    '--label',
    a.label ? `${a.label}:${setup}` : setup,
    ...running.opts.flatMap((o) => ['--opt', o]),
  ];
  const cmd = ['timeout', '--kill-after=5', a['run-timeout'], ...pin(LOAD_CPUS, argv)];
  return new Promise((resolve) => {
    const child = track(spawn(cmd[0], cmd.slice(1), { cwd: peersDir, stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let oursStats: unknown;
    let gc: LoadResult['gc'];
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      if (line.startsWith('[loadgen-gc] ')) {
        gc = JSON.parse(line.slice(13)) as LoadResult['gc'];
        return;
      }
      process.stderr.write(`  ${line}\n`);
      if (line.startsWith('[load] connected')) onConnected();
      const m = /^\[ours\] (.*)$/.exec(line);
      if (m) oursStats = JSON.parse(m[1]);
    });
    child.once('exit', (code) => {
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(out.trim().split('\n').pop() ?? '') as Record<string, unknown>;
      } catch {
        // no result
      }
      resolve({ code, json, oursStats, gc });
    });
  });
}

// ---------- main ----------
function preparePeers(scratch: string): { dir: string; files: Record<string, string> } {
  const dir = path.join(scratch, 'peers');
  mkdirSync(path.join(dir, 'adapters'), { recursive: true });
  const files: Record<string, string> = {};
  const copy = (rel: string) => {
    const src = path.join(a.peers, rel);
    copyFileSync(src, path.join(dir, rel));
    files[rel] = createHash('sha256').update(readFileSync(src)).digest('hex').slice(0, 16);
  };
  for (const f of readdirSync(a.peers)) if (f.endsWith('.mjs') || f === 'package.json') copy(f);
  for (const f of readdirSync(path.join(a.peers, 'adapters')))
    if (f.endsWith('.mjs')) copy(path.join('adapters', f));
  // The peers' files run unchanged; their packages (ws, socket.io…) come from the repository's node_modules.
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, files };
}

/** The kernel's TCP counters that show connections queued past a listening socket's backlog (/proc/net/netstat). */
const TCP_COUNTERS = {
  ListenOverflows: 'listenOverflows',
  ListenDrops: 'listenDrops',
  TCPSynRetrans: 'synRetrans',
} as const;
type TcpCounters = Record<(typeof TCP_COUNTERS)[keyof typeof TCP_COUNTERS], number>;

function tcpCounters(): TcpCounters | undefined {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('TcpExt:'));
    const [names, values] = lines.map((l) => l.split(/\s+/).slice(1));
    const out: Partial<TcpCounters> = {};
    for (const [name, key] of Object.entries(TCP_COUNTERS)) out[key] = Number(values[names.indexOf(name)]);
    return out as TcpCounters;
  } catch {
    return undefined; // not Linux
  }
}

/** Machine-wide, over the whole run (connects included); nothing else on the machine makes connections meanwhile. */
function tcpDelta(before: TcpCounters | undefined, after: TcpCounters | undefined): TcpCounters | undefined {
  if (!before || !after) return undefined;
  return Object.fromEntries(
    Object.entries(after).map(([k, v]) => [k, v - before[k as keyof TcpCounters]]),
  ) as TcpCounters;
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'district-bench-chat-'));
  await import('node:fs/promises').then((fs) => fs.chmod(scratch, 0o755));
  const machine = describeMachine();
  progress(pinBenchScript(pinning));
  const peers = preparePeers(scratch);
  const ports = widenPortRange(a['port-range']);
  // Put back however the script ends, success, failure or signal (restore() is synchronous).
  process.once('exit', () => ports.restore());
  const portRange = {
    before: ports.before && describePortRange(ports.before),
    used: ports.used && describePortRange(ports.used),
    note: ports.note,
  };
  progress(`local port range ${portRange.used ?? 'unknown'}${ports.note ? `: ${ports.note}` : ''}`);
  mkdirSync(path.dirname(path.resolve(a.out)), { recursive: true });
  const header = {
    kind: 'header',
    ts: new Date().toISOString(),
    command: `npm run bench:chat -w bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    machine,
    loadAverage: loadAverage(),
    pinning,
    peers: peers.files,
    // What was measured: the commit, and any uncommitted change to the code the servers run.
    commit: spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout.trim(),
    dirty: spawnSync('git', ['status', '--porcelain', '--', 'services', 'libs', 'gateway', 'launcher'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).stdout.trim(),
    senders: Number(a.senders),
    portRange,
  };
  appendFileSync(a.out, `${JSON.stringify(header)}\n`);
  progress(
    `set-ups ${setups.join(', ')}; clients ${clientCounts.join(', ')}; ${PAIRS} pair(s); out ${a.out}; scratch ${scratch}`,
  );

  let infra: OursInfra | undefined;
  let current: Running | undefined;
  let stopping = false;
  const cleanUp = async () => {
    if (stopping) return;
    stopping = true;
    await current?.stop().catch(() => undefined);
    for (const child of [...tracker.live]) await stopChild(child, 5000).catch(() => undefined);
    await infra?.stop().catch((e: unknown) => progress(`infra stop failed: ${String(e)}`));
    await tracker.stopAll();
    // CHAT_BENCH_LOGS=DIR keeps the servers' logs (the launcher processes log to the scratch directory).
    if (process.env.CHAT_BENCH_LOGS) {
      mkdirSync(process.env.CHAT_BENCH_LOGS, { recursive: true });
      for (const f of readdirSync(scratch))
        if (f.endsWith('.log'))
          copyFileSync(path.join(scratch, f), path.join(process.env.CHAT_BENCH_LOGS, f));
    }
    await rm(scratch, { recursive: true, force: true });
  };
  const onSignal = () => {
    progress('interrupted: stopping every process this run started');
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (needsOurs) infra = await startOursInfra(scratch, Math.max(...clientCounts), Number(a.rooms));
    for (const clients of clientCounts) {
      for (let pair = 1; pair <= PAIRS; pair++) {
        for (const setup of setups) {
          for (let attempt = 1; attempt <= Number(a.retries) + 1; attempt++) {
            progress(
              `===== ${setup}, ${clients} clients, pair ${pair}/${PAIRS}${attempt > 1 ? `, attempt ${attempt}` : ''} =====`,
            );
            const idle = await waitIdle();
            let r: LoadResult = { code: null, json: null };
            let killedAt: number | undefined;
            let runOpts: string[] = [];
            let probe: Promise<WindowFigures[]> | undefined;
            let windowFrom: number | undefined;
            const tcpBefore = tcpCounters();
            try {
              const started = Date.now();
              current = await startSetup(setup, peers.dir, scratch, infra);
              progress(
                `${setup} up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${current.urls.join(' ')} (pids ${current.pids.join(',')}${current.auxPids.length ? `, redis ${current.auxPids.join(',')}` : ''})`,
              );
              await sleep(1000);
              const running = current;
              runOpts = running.opts;
              r = await runLoad(peers.dir, setup, running, clients, () => {
                // The window starts after the settle (2 s) and the warm-up.
                const windowInMs = (2 + Number(a.warmup)) * 1000;
                windowFrom = Date.now() + windowInMs;
                if (running.metricsUrls)
                  probe = windowProbe(running.metricsUrls, windowInMs, Number(a.duration) * 1000);
                if (KILL_AFTER === undefined || !running.victim) return;
                const victim = running.victim;
                // settle (2 s) + warm-up, then KILL_AFTER seconds into the measured window
                const delay = (2 + Number(a.warmup) + KILL_AFTER) * 1000;
                setTimeout(() => {
                  killedAt = Date.now();
                  progress(`SIGKILL chat replica pid ${victim.pid}`);
                  victim.kill('SIGKILL');
                }, delay).unref();
              });
            } catch (error) {
              progress(`${setup} failed: ${error instanceof Error ? error.message : String(error)}`);
            } finally {
              await current?.stop().catch(() => undefined);
              current = undefined;
            }
            const json = r.json;
            const noisy =
              !!json &&
              Number((json.machine as { otherCpuPct: number }).otherCpuPct) > Number(a['noisy-pct']);
            const last = attempt === Number(a.retries) + 1;
            if (json) {
              json.suite = { target: setup, pair, attempt, idleBefore: idle, noisy };
              if (r.oursStats)
                json.ours = {
                  ...(r.oursStats as object),
                  senders: Number(a.senders),
                  refs: !a['no-refs'],
                  rosterDigest: !a['no-roster-digest'],
                  adapterOpts: runOpts.filter((o) => !o.startsWith('setup=') && !o.startsWith('failover=')),
                };
              const window = probe
                ? await Promise.race([probe, sleep(10_000).then(() => undefined)])
                : undefined;
              if (window) json.serverWindow = window;
              if (r.gc && windowFrom)
                json.loadgenGc = gcInWindow(r.gc, windowFrom, windowFrom + Number(a.duration) * 1000);
              if (LOADGEN_NODE_ARGS.length) json.loadgenNodeArgs = LOADGEN_NODE_ARGS;
              if (a['redis-cpus']) json.redisCpus = a['redis-cpus'];
              if (killedAt) json.kill = { afterS: KILL_AFTER, at: new Date(killedAt).toISOString() };
              json.tcp = tcpDelta(tcpBefore, tcpCounters());
              // The first `gateways` of the line's servers are the gateways (report-tables.mjs splits the CPU so).
              if (setup === 'ours-gw') json.gateways = GATEWAYS;
              if (setup.startsWith('ours'))
                json.listenBacklog = a['listen-backlog'] ? Number(a['listen-backlog']) : 'launcher default';
              if (noisy && !last)
                json.discarded = `other processes used ${(json.machine as { otherCpuPct: number }).otherCpuPct} % CPU during the run`;
              appendFileSync(a.out, `${JSON.stringify(json)}\n`);
            } else progress(`load exited ${r.code} for ${setup}: no result`);
            await sleep(2000);
            if (!noisy) break;
          }
        }
      }
    }
  } finally {
    await cleanUp();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  // A real ESM import (the TypeScript here is compiled to CommonJS, whose import() would become require()).
  const esmImport = new Function('url', 'return import(url)') as (
    url: string,
  ) => Promise<{ summarize: (files: string[]) => Promise<string> }>;
  const { summarize } = await esmImport(
    pathToFileURL(path.join(REPO_ROOT, 'bench/chat/report-tables.mjs')).href,
  );
  process.stdout.write(`${await summarize([a.out])}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
