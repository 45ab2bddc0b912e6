import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import {
  REPO_ROOT,
  callerPath,
  freePort,
  serviceNodeArgs,
  spawnTypeScript,
  stopChild,
} from '../lib/child-processes';
import {
  ProcessTracker,
  createThrowawayDatabase,
  sessionSigner,
  startNats,
  startRedis,
  waitHttp,
  writeSessions,
} from '../lib/cluster-infra';
import { pinBenchScript, planPinning } from '../lib/cpu-pinning';
import { serviceUrlsOf } from '../lib/launcher-stack';
import { clockTicksPerSecond, describeMachine, loadAverage } from '../lib/machine-info';
import { processTicks } from '../lib/process-cpu';
import { readFileSync, readdirSync } from 'node:fs';
import { renderAssessmentReport, type AssessmentRun, type BurstRecord } from './assessment-report';
import { planBurst, runBurst } from './submissions';

const USAGE = `Assessment benchmark (issue #12): the district burst — grade submissions through the gateway to one or two
assessment replicas (cluster topology: each replica and the gateway their own process, a NATS, a Redis and a
database of the run's own), a share of them retried with the same Idempotency-Key; then the database is counted.

  npm run bench:assessment -w bench -- [options]

  --replicas LIST     assessment replica counts compared, alternated each round (default 2,1)
  --rounds N          rounds (default 2)
  --rate N            the burst's submissions per second (default 300)
  --duration S        the burst's length (default 10)
  --warmup S          seconds of submissions at 100/s before each set-up's first burst, not recorded (default 20:
                      replicas that have been serving; 2 measures replicas just started, whose code V8 has not
                      optimised yet)
  --ladder LIST       further rates tried after a burst that held, until p99 > the target or an error (default 450,600,800,1000)
  --ladder-down LIST  rates tried after a burst that missed, until one holds (default 200,150,100,50)
  --retry-share X     share of submissions sent twice with the same key (default 0.1)
  --students N        signed-in students (default 300)
  --quizzes N         text quizzes, unlimited attempts, 10 questions each (default 10)
  --connections N     the load generator's connection pool (default 128)
  --p99 MS            the latency target (default 500)
  --out DIR           where assessment.json and assessment.md go (default bench/reports)
  --cpu-prof DIR      write a V8 CPU profile of every assessment replica there (bench/chat/profile-summary.mjs reads it;
                      profiled runs are slower: do not compare their figures with others)
  --report-only       render assessment.md again from assessment.json in --out (with --notes: replacing the notes)
  --notes FILE        Markdown shown at the end of the report (what the figures mean on this machine; kept in the JSON)
  --warm-up-rounds N  WARM_UP_ROUNDS of every assessment replica: the rounds of the rehearsal a replica runs before it
                      listens (default: unset, the service's own, 1000; 0 starts replicas cold)
  --late-replica      the last replica of a set-up starts only after the warm-up, and the burst follows as soon as
                      the gateway has it in rotation: a replica added by the autoscaler to a set-up that has been
                      serving (its own warm-up: --warm-up-rounds)
  --replica-node-args=FLAGS  extra Node flags for every assessment replica (e.g. --replica-node-args=--trace-gc, to
                      place a stall)
  --logs DIR          keep the replicas' and gateway's logs there (default: the run's scratch directory, removed)
  --no-pin            do not pin the servers to CPU 1 and the load generator to CPU 0
`;

const { values: a } = parseArgs({
  options: {
    replicas: { type: 'string', default: '2,1' },
    rounds: { type: 'string', default: '2' },
    rate: { type: 'string', default: '300' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '20' },
    ladder: { type: 'string', default: '450,600,800,1000' },
    'ladder-down': { type: 'string', default: '200,150,100,50' },
    'retry-share': { type: 'string', default: '0.1' },
    students: { type: 'string', default: '300' },
    quizzes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '128' },
    p99: { type: 'string', default: '500' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench/reports') },
    notes: { type: 'string' },
    'report-only': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    'log-level': { type: 'string', default: 'warn' },
    'replica-node-args': { type: 'string', default: '' },
    'warm-up-rounds': { type: 'string' },
    'late-replica': { type: 'boolean', default: false },
    logs: { type: 'string' },
    'no-pin': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (a.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const OUT = callerPath(a.out);
const LOG_DIR = a.logs ? callerPath(a.logs) : undefined;
if (LOG_DIR) mkdirSync(LOG_DIR, { recursive: true });
const readNotes = (file: string) => readFileSync(callerPath(file), 'utf8');
const numbers = (list: string) =>
  list
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n > 0);
const REPLICAS = numbers(a.replicas);
const ROUNDS = Number(a.rounds);
const RATE = Number(a.rate);
const DURATION_MS = Number(a.duration) * 1000;
const WARMUP_MS = Number(a.warmup) * 1000;
const LADDER = numbers(a.ladder);
const LADDER_DOWN = numbers(a['ladder-down']);
const RETRY_SHARE = Number(a['retry-share']);
const STUDENTS = Number(a.students);
const QUIZZES = Number(a.quizzes);
const QUESTIONS = 10;
const CONNECTIONS = Number(a.connections);
const P99_TARGET = Number(a.p99);
const progress = (m: string) => process.stderr.write(`[bench:assessment] ${m}\n`);

const pinning = planPinning(!a['no-pin']);
const SERVER_CPUS = pinning.serverCpus;
const tracker = new ProcessTracker();

interface Infra {
  /** NATS and Redis of this run (their CPU is counted per burst). */
  auxPids: { nats?: number; redis: number };
  scratch: string;
  natsUrl: string;
  redisUrl: string;
  databaseUrl: string;
  publicKeyPem: string;
  studentIds: string[];
  studentTokens: string[];
  teacherToken: string;
}

/** One launcher process (`TARGET` assessment or gateway), pinned to the server CPU, logging into the scratch directory. */
async function startTarget(
  infra: Infra,
  name: string,
  env: Record<string, string>,
  nodeArgs: readonly string[],
  ready: (port: number, log: string) => Promise<void>,
  chosenPort?: number,
) {
  const port = chosenPort ?? (await freePort());
  const dataDir = path.join(infra.scratch, `data-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const log = path.join(LOG_DIR ?? infra.scratch, `${name}.log`);
  const fd = openSync(log, 'a');
  const child = tracker.track(
    spawnTypeScript(path.join(REPO_ROOT, 'launcher/src/main.ts'), [], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        DEMO: 'false',
        LOG_LEVEL: a['log-level'],
        DATABASE_URL: infra.databaseUrl,
        NATS_URL: infra.natsUrl,
        REDIS_URL: infra.redisUrl,
        AUTH_PUBLIC_KEY: infra.publicKeyPem,
        ...env,
      },
      stdio: ['ignore', fd, fd],
      cpus: SERVER_CPUS,
      nodeArgs,
    }),
  );
  const stop = async () => {
    await stopChild(child, 15_000);
    closeSync(fd);
  };
  try {
    await ready(port, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, pid: child.pid as number, log, stop };
}

const PROFILE_DIR = a['cpu-prof'] ? callerPath(a['cpu-prof']) : undefined;
const REPLICA_NODE_ARGS = serviceNodeArgs('assessment', a['replica-node-args']);
const LATE_REPLICA = a['late-replica'];
const WARM_UP_ROUNDS = a['warm-up-rounds'] === undefined ? undefined : Number(a['warm-up-rounds']);
if (WARM_UP_ROUNDS !== undefined && !(Number.isInteger(WARM_UP_ROUNDS) && WARM_UP_ROUNDS >= 0))
  throw new Error('--warm-up-rounds takes a whole number');
const startReplica = (infra: Infra, name: string, publicUrl: string, port?: number) =>
  startTarget(
    infra,
    name,
    {
      TARGET: 'assessment',
      PUBLIC_URL: publicUrl,
      // The replica that prepares the run (migrations, quizzes) serves no burst: it needs no warm-up.
      ...(name === 'prep'
        ? { WARM_UP_ROUNDS: '0' }
        : WARM_UP_ROUNDS === undefined
          ? {}
          : { WARM_UP_ROUNDS: String(WARM_UP_ROUNDS) }),
    },
    [
      ...REPLICA_NODE_ARGS,
      ...(PROFILE_DIR && name !== 'prep' ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : []),
    ],
    (port, log) => waitHttp(`http://127.0.0.1:${port}/readyz`, (s) => s === 200, 120_000, undefined, log),
    port,
  );

/** Waits until the gateway counts `up` assessment replicas in rotation (its active check runs every 2 s). */
const replicasUp = (publicUrl: string, up: number, log: string) =>
  waitHttp(
    `${publicUrl}/metrics`,
    (s, body) =>
      s === 200 &&
      serviceUrlsOf(body, ['assessment']) !== undefined &&
      (body.match(/gateway_upstream_up\{service="assessment"[^}]*\} 1/g) ?? []).length === up,
    120_000,
    undefined,
    log,
  );

/**
 * The replicas and their gateway. With `late` (and two replicas or more) the last replica is not started with the
 * others: `addLate` starts it after the warm-up, as the autoscaler adds one to a set-up that has been serving, and
 * resolves once the gateway has it in rotation.
 */
async function startSetup(infra: Infra, replicas: number, late = false) {
  const gatewayPort = await freePort();
  const publicUrl = `http://127.0.0.1:${gatewayPort}`;
  const ports: number[] = [];
  for (let r = 0; r < replicas; r++) ports.push(await freePort());
  const early = late && replicas > 1 ? replicas - 1 : replicas;
  const started: Array<{ port: number; pid: number; stop(): Promise<void> }> = [];
  for (let r = 0; r < early; r++)
    started.push(await startReplica(infra, `assessment-${replicas}x-${r}`, publicUrl, ports[r]));
  const gateway = await startTarget(
    infra,
    `gateway-${replicas}x`,
    {
      TARGET: 'gateway',
      PORT: String(gatewayPort),
      PUBLIC_URL: publicUrl,
      UPSTREAM_ASSESSMENT: ports.map((p) => `http://127.0.0.1:${p}`).join(','),
      WEB_DIST: path.join(infra.scratch, 'no-web-build'),
    },
    [],
    (_port, log) => replicasUp(publicUrl, early, log),
  );
  const replicaPids = started.map((s) => s.pid);
  return {
    publicUrl,
    replicaPids,
    gatewayPid: gateway.pid,
    addLate:
      early < replicas
        ? async () => {
            const added = await startReplica(
              infra,
              `assessment-${replicas}x-${early}-late`,
              publicUrl,
              ports[early],
            );
            started.push(added);
            replicaPids.push(added.pid);
            await replicasUp(publicUrl, replicas, gateway.log);
          }
        : undefined,
    stop: async () => {
      await gateway.stop();
      for (const s of started) await s.stop();
    },
  };
}

async function prepare(
  scratch: string,
  stops: Array<() => Promise<void> | void>,
): Promise<{ infra: Infra; quizIds: string[] }> {
  const nats = await startNats(tracker, scratch, SERVER_CPUS);
  stops.push(() => nats.stop());
  const redis = await startRedis(tracker, scratch, SERVER_CPUS);
  stops.push(() => redis.stop());
  const database = await createThrowawayDatabase('bench_assessment', progress);
  stops.push(() => database.drop());
  const signer = sessionSigner();
  const claims = (i: number, role: 'student' | 'teacher') => ({
    sub: randomUUID(),
    tv: 1,
    role,
    approved: true,
    isAdmin: false,
    name: `${role} ${i}`,
    username: `${role}${i}`,
    email: `${role}${i}@bench.test`,
  });
  const students = Array.from({ length: STUDENTS }, (_, i) => claims(i, 'student'));
  const teacher = claims(0, 'teacher');
  const infra: Infra = {
    auxPids: { nats: nats.pid, redis: redis.pid },
    scratch,
    natsUrl: nats.url,
    redisUrl: redis.url,
    databaseUrl: database.url,
    publicKeyPem: signer.publicKeyPem,
    studentIds: students.map((s) => s.sub),
    studentTokens: await Promise.all(students.map((s) => signer.sign(s))),
    teacherToken: await signer.sign(teacher),
  };
  await writeSessions(redis.url, [...infra.studentIds, teacher.sub]);

  // Migrations and the quizzes, through one replica's own API (not measured).
  const prep = await startReplica(infra, 'prep', 'http://127.0.0.1:1');
  const quizIds: string[] = [];
  try {
    for (let q = 0; q < QUIZZES; q++) {
      const res = await fetch(`http://127.0.0.1:${prep.port}/api/text-quizzes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `district_session=${infra.teacherToken}` },
        body: JSON.stringify({
          title: `Bench quiz ${q}`,
          description: 'assessment benchmark',
          maxAttempts: -1,
          questions: Array.from({ length: QUESTIONS }, (_, i) => ({
            question: `Question ${i + 1}`,
            options: ['a', 'b', 'c', 'd'],
            correctAnswer: i % 4,
          })),
        }),
      });
      if (res.status !== 201 && res.status !== 200)
        throw new Error(`creating a quiz answered ${res.status}: ${await res.text()}`);
      quizIds.push(((await res.json()) as { id: string }).id);
    }
  } finally {
    await prep.stop();
  }
  return { infra, quizIds };
}

/** Every process of the machine's PostgreSQL (its backends do the database work of the burst). */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim().startsWith('postgres')) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

type CpuGroups = Record<'replicas' | 'gateway' | 'postgres' | 'nats' | 'redis', number[]>;
const ticksOf = (pids: number[]) => pids.reduce((n, pid) => n + (processTicks(pid)?.own ?? 0), 0);
function readCpu(groups: CpuGroups): Record<keyof CpuGroups, number> {
  return Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, ticksOf(pids)])) as Record<
    keyof CpuGroups,
    number
  >;
}

/** The database's side: rows stored for the burst's keys, and keys stored more than once. */
async function countStored(
  databaseUrl: string,
  keys: readonly string[],
  answeredIds: Map<string, string>,
): Promise<{ stored: number; duplicates: number; lost: number }> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const rows = (
      await db.query(
        `SELECT id, idempotency_key AS key FROM assessment.grades WHERE idempotency_key = ANY($1::uuid[])`,
        [keys],
      )
    ).rows as Array<{ id: string; key: string }>;
    const perKey = new Map<string, string[]>();
    for (const r of rows) perKey.set(r.key, [...(perKey.get(r.key) ?? []), r.id]);
    let duplicates = 0;
    let lost = 0;
    for (const ids of perKey.values()) if (ids.length > 1) duplicates += ids.length - 1;
    // Lost: a key the client was told was stored (an id answered) with no row, or with a row of another id.
    for (const [key, id] of answeredIds) if (!(perKey.get(key) ?? []).includes(id)) lost += 1;
    return { stored: rows.length, duplicates, lost };
  } finally {
    await db.end();
  }
}

async function burst(
  infra: Infra,
  quizIds: string[],
  setup: { publicUrl: string; replicaPids: number[]; gatewayPid: number },
  rate: number,
  seed: number,
): Promise<BurstRecord> {
  const url = setup.publicUrl;
  const plan = planBurst({
    rate,
    durationMs: DURATION_MS,
    retryShare: RETRY_SHARE,
    tokens: infra.studentTokens,
    quizIds,
    questions: QUESTIONS,
    seed,
  });
  const load = loadAverage();
  const groups: CpuGroups = {
    replicas: setup.replicaPids,
    gateway: [setup.gatewayPid],
    postgres: postgresPids(),
    nats: infra.auxPids.nats ? [infra.auxPids.nats] : [],
    redis: [infra.auxPids.redis],
  };
  const before = readCpu(groups);
  const startedAt = Date.now();
  const result = await runBurst(url, '/api/text-quiz-grades', plan, rate, CONNECTIONS, url);
  const after = readCpu(groups);
  const msPerTick = 1000 / clockTicksPerSecond();
  // CPU milliseconds per request (retries included) by process group, over the whole burst.
  const cpuMsPerRequest = Object.fromEntries(
    Object.keys(groups).map((k) => [
      k,
      Math.round(
        ((after[k as keyof CpuGroups] - before[k as keyof CpuGroups]) * msPerTick * 1000) /
          Math.max(1, result.requests),
      ) / 1000,
    ]),
  ) as BurstRecord['cpuMsPerRequest'];
  const db = await countStored(
    infra.databaseUrl,
    plan.map((s) => s.key),
    result.idsByKey,
  );
  const { idsByKey: _ids, ...rest } = result;
  const record: BurstRecord = { ...rest, ...db, startedAt, loadAverageBefore: load[0], cpuMsPerRequest };
  const slow = result.timeline
    .filter((w) => w.max > P99_TARGET / 2)
    .map((w) => `${(w.atMs / 1000).toFixed(2)} s: p50 ${w.p50}, max ${w.max}`);
  progress(
    `  ${rate}/s: generator loop delay ≤ ${record.generatorMaxLoopDelayMs} ms; windows over ${P99_TARGET / 2} ms: ${slow.length ? slow.join('; ') : 'none'}`,
  );
  progress(
    `  ${rate}/s: cpu ms/request ${JSON.stringify(cpuMsPerRequest)}, p50 ${record.latency.p50} ms, p99 ${record.latency.p99} ms, ok ${record.ok}/${record.requests}, non-2xx ${JSON.stringify(record.non2xx)}, failed ${record.failed}, stored ${record.stored}/${record.attempts}, dup ${record.duplicates}, lost ${record.lost}, retry mismatches ${record.retryMismatches}`,
  );
  return record;
}

async function main(): Promise<void> {
  if (a['report-only']) {
    // Render assessment.md again from assessment.json (with --notes: those notes instead of the kept ones).
    const kept = JSON.parse(readFileSync(path.join(OUT, 'assessment.json'), 'utf8')) as AssessmentRun;
    if (a.notes) kept.notes = readNotes(a.notes);
    writeFileSync(path.join(OUT, 'assessment.json'), `${JSON.stringify(kept, null, 2)}\n`);
    writeFileSync(path.join(OUT, 'assessment.md'), renderAssessmentReport(kept));
    return;
  }
  progress(
    pinning.serverCpus
      ? `servers on CPU ${pinning.serverCpus}, load generator and this script on CPU ${pinning.loadCpus}`
      : 'not pinned',
  );
  // Read before this script pins itself to one CPU (it would then see only that one).
  const machine = describeMachine();
  pinBenchScript(pinning);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'district-bench-assessment-'));
  const stops: Array<() => Promise<void> | void> = [];
  const run: AssessmentRun = {
    date: new Date().toISOString(),
    machine,
    pinning: pinning.serverCpus
      ? `servers (replicas, gateway, NATS, Redis) on CPU ${pinning.serverCpus}; load generator on CPU ${pinning.loadCpus}; PostgreSQL (the machine's) unpinned`
      : 'not pinned',
    settings: {
      rate: RATE,
      durationS: DURATION_MS / 1000,
      warmupS: WARMUP_MS / 1000,
      retryShare: RETRY_SHARE,
      students: STUDENTS,
      quizzes: QUIZZES,
      questions: QUESTIONS,
      connections: CONNECTIONS,
      p99TargetMs: P99_TARGET,
      ladder: LADDER,
      replicaNodeArgs: REPLICA_NODE_ARGS,
      warmUpRounds: WARM_UP_ROUNDS ?? 'service default',
      ...(LATE_REPLICA ? { lateReplica: true } : {}),
    },
    rounds: [],
    ...(a.notes ? { notes: readNotes(a.notes) } : {}),
  };
  let seed = 1;
  try {
    const { infra, quizIds } = await prepare(scratch, stops);
    progress(`prepared: ${STUDENTS} students, ${quizIds.length} quizzes; scratch ${scratch}`);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? REPLICAS : [...REPLICAS].reverse();
      for (const replicas of order) {
        progress(`round ${round + 1}/${ROUNDS}: ${replicas} replica(s)`);
        const setup = await startSetup(infra, replicas, LATE_REPLICA);
        try {
          // A warm-up at 100/s (JIT, pools), not recorded.
          await runBurst(
            setup.publicUrl,
            '/api/text-quiz-grades',
            planBurst({
              rate: 100,
              durationMs: WARMUP_MS,
              retryShare: 0,
              tokens: infra.studentTokens,
              quizIds,
              questions: QUESTIONS,
              seed: 999 + round,
            }),
            100,
            CONNECTIONS,
            setup.publicUrl,
          );
          if (setup.addLate) {
            const t = Date.now();
            await setup.addLate();
            progress(
              `  late replica in rotation ${((Date.now() - t) / 1000).toFixed(1)} s after it was started`,
            );
          }
          const main = await burst(infra, quizIds, setup, RATE, seed++);
          const ladder: BurstRecord[] = [];
          const over = (b: BurstRecord) =>
            b.latency.p99 > P99_TARGET || b.failed > 0 || Object.keys(b.non2xx).length > 0;
          // Up from the burst's rate while it holds; down from it (LADDER_DOWN) when it does not, to find the rate that does.
          for (const rate of over(main) ? LADDER_DOWN : LADDER) {
            const step = await burst(infra, quizIds, setup, rate, seed++);
            ladder.push(step);
            if (over(main) ? !over(step) : over(step)) break;
          }
          run.rounds.push({ round: round + 1, replicas, burst: main, ladder });
        } finally {
          await setup.stop();
        }
      }
    }
  } finally {
    for (const stop of stops.reverse())
      await Promise.resolve(stop()).catch((e: unknown) => progress(`stop failed: ${String(e)}`));
    await tracker.stopAll();
    await rm(scratch, { recursive: true, force: true });
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, 'assessment.json'), `${JSON.stringify(run, null, 2)}\n`);
  writeFileSync(path.join(OUT, 'assessment.md'), renderAssessmentReport(run));
  progress(`wrote ${path.join(OUT, 'assessment.md')}`);
}

main().catch(async (error: unknown) => {
  progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await tracker.stopAll();
  process.exit(1);
});
