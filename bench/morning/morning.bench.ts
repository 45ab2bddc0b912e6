import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { REPO_ROOT, callerPath } from '../lib/child-processes';
import { describePinning, pinBenchScript, planPinning } from '../lib/cpu-pinning';
import { clockTicksPerSecond, describeMachine } from '../lib/machine-info';
import { checkWrites } from '../faults/verify';
import { MorningClient, Timeline, signIn } from './client';
import { cpuBetween, sampleCpu, type CpuSample } from './cpu';
import { importDistrict, provisionClasses, readRoster, waitProjections, type MorningClass } from './district';
import { arrivalOffsets, kneeVerdict, parseSteps, seededRandom, type ArrivalKind } from './plan';
import { chatDelivery, renderMorning, type MorningRun, type StepRecord } from './report';
import { LATENCY_EXEMPT, Ledger, pupilSession, teacherSession } from './sessions';
import { MorningStack, parseReplicas } from './stack';

const USAGE = `The school morning (issue #38): a district imported into the cluster topology, then pupil sessions arriving
at a rate (open loop) in steps until a route's p95 passes the limit or errors appear.

  SWC_NODE_PROJECT=../tsconfig.runtime.json node -r @swc-node/register morning/morning.bench.ts [options]   (in bench/)

  --quick                 300 pupils, 12 teachers, 3 schools; steps 30,60 per minute of 40 s; chat 10 s;
                          every step runs; exits 1 on any request error, lost or duplicated grade or chat message
  --schools N --teachers N --students N --seed N   the district (default 50, 2000, 40000, 1)
  --steps LIST            sessions per minute, ascending (default 200,400,600,800,1000,1200)
  --step-seconds S        each step's length (default 120)
  --chat-seconds S        the chat's three messages spread over S seconds (default 60)
  --arrivals even|poisson how sessions are spaced within a step (default even)
  --p95-ms MS             the knee's latency limit (default 300)
  --replicas LIST         service=count over one each (default chat=2,assessment=2)
  --setup-width N         set-up calls at a time (default 8)
  --drain-seconds S       how long to wait for running sessions after the last step (default chat-seconds + 60)
  --out DIR               where morning.json and morning.md go (default a temporary folder)
  --keep                  keep the database and the scratch folder
  --log-level LEVEL       the cluster's LOG_LEVEL (default warn)
  --all-steps             run every step even past the knee (--quick does)
  --no-pin                do not pin the cluster to CPU 1 and this script to CPU 0
`;

const { values: a } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    schools: { type: 'string' },
    teachers: { type: 'string' },
    students: { type: 'string' },
    seed: { type: 'string', default: '1' },
    steps: { type: 'string' },
    'step-seconds': { type: 'string' },
    'chat-seconds': { type: 'string' },
    arrivals: { type: 'string', default: 'even' },
    'p95-ms': { type: 'string', default: '300' },
    replicas: { type: 'string', default: 'chat=2,assessment=2' },
    'setup-width': { type: 'string', default: '8' },
    'drain-seconds': { type: 'string' },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'warn' },
    'no-pin': { type: 'boolean', default: false },
    'all-steps': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (a.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const QUICK = a.quick;
const num = (text: string | undefined, fallback: number, name: string) => {
  const v = text === undefined ? fallback : Number(text);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
};
const SIZE = {
  schools: num(a.schools, QUICK ? 3 : 50, 'schools'),
  teachers: num(a.teachers, QUICK ? 12 : 2000, 'teachers'),
  students: num(a.students, QUICK ? 300 : 40_000, 'students'),
  seed: num(a.seed, 1, 'seed'),
};
const STEPS = parseSteps(a.steps ?? (QUICK ? '30,60' : '200,400,600,800,1000,1200'));
const STEP_SECONDS = num(a['step-seconds'], QUICK ? 40 : 120, 'step-seconds');
const CHAT_SECONDS = num(a['chat-seconds'], QUICK ? 10 : 60, 'chat-seconds');
const ARRIVALS = a.arrivals as ArrivalKind;
if (ARRIVALS !== 'even' && ARRIVALS !== 'poisson') throw new Error('--arrivals must be even or poisson');
const P95_MS = num(a['p95-ms'], 300, 'p95-ms');
const REPLICAS = parseReplicas(a.replicas);
const SETUP_WIDTH = num(a['setup-width'], 8, 'setup-width');
/** Run every step even past the knee: the short form's job is to find errors and lost data, not the knee. */
const ALL_STEPS = QUICK || a['all-steps'];
const DRAIN_SECONDS = num(a['drain-seconds'], CHAT_SECONDS + 60, 'drain-seconds');
const OUT = a.out ? callerPath(a.out) : mkdtempSync(path.join(os.tmpdir(), 'district-morning-out-'));
/** One session in this many is a teacher's. */
const TEACHER_EVERY = 20;

const ADMIN = { email: 'morning-admin@district.example', password: randomBytes(12).toString('hex') };
const PASSWORD = randomBytes(12).toString('hex');

const progress = (message: string) =>
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const machine = describeMachine();
  const pinning = planPinning(!a['no-pin']);
  progress(pinBenchScript(pinning));
  const failures: string[] = [];
  const fail = (m: string) => {
    failures.push(m);
    progress(`FAILURE: ${m}`);
  };
  const stack = await MorningStack.start({
    replicas: REPLICAS,
    cpus: pinning.serverCpus,
    admin: ADMIN,
    logLevel: a['log-level'],
    log: progress,
    keep: a.keep,
  });
  stack.keepScratch = a.keep;
  progress(`cluster up at ${stack.gateway} (log ${stack.logFile})`);
  const interrupted = () => void stack.stop().then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  try {
    const setupClient = new MorningClient(stack.gateway, undefined);
    const adminCookie = await signIn(setupClient, ADMIN.email, ADMIN.password);

    // The district, imported through the API, then the projections awaited.
    const imported = await importDistrict(
      setupClient,
      adminCookie,
      SIZE,
      PASSWORD,
      stack.scratch,
      QUICK ? 120_000 : 60 * 60_000,
    );
    progress(`import ${imported.status} in ${imported.wallMs} ms: ${JSON.stringify(imported)}`);
    if (imported.status !== 'done' || imported.errorCount > 0)
      throw new Error(`the import ended ${imported.status}`);
    const projectionsStarted = Date.now();
    await waitProjections(stack.database.url, QUICK ? 60_000 : 900_000);
    const projectionMs = Date.now() - projectionsStarted;
    progress(`projections consistent ${projectionMs} ms after the import`);
    const roster = await readRoster(stack.database.url);
    const provisionStarted = Date.now();
    const classes = await provisionClasses(
      setupClient,
      adminCookie,
      roster,
      PASSWORD,
      stack.audio,
      SETUP_WIDTH,
      progress,
    );
    const provisionMs = Date.now() - provisionStarted;
    progress(
      `${classes.length} classes given a lesson, a quiz, a chatroom and an audio list in ${provisionMs} ms`,
    );
    // Chat learns a class room's members from its roster projection; the rooms were made after it was complete.

    // Who comes in: every pupil once at most, in a seeded order, each into one of their classes.
    const random = seededRandom(SIZE.seed);
    const byPupil = new Map<string, { email: string; classes: MorningClass[] }>();
    for (const c of classes)
      for (const p of c.pupils) {
        const entry = byPupil.get(p.id) ?? { email: p.email, classes: [] };
        entry.classes.push(c);
        byPupil.set(p.id, entry);
      }
    const pupils = [...byPupil.entries()];
    for (let i = pupils.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [pupils[i], pupils[j]] = [pupils[j], pupils[i]];
    }

    const timeline = new Timeline();
    const client = new MorningClient(stack.gateway, timeline);
    const ledger = new Ledger();
    const steps: StepRecord[] = [];
    const running = new Set<Promise<unknown>>();
    const perStep: Array<{ started: number; completed: number; failed: number }> = [];
    let next = 0;
    let ranOut = false;
    let knee: MorningRun['knee'] = null;
    const cpuTargets = {
      clusterPid: stack.cluster.pid as number,
      redisPid: stack.redis.pid,
      natsPid: stack.nats.pid,
    };
    // CPU at each step's start, and once the last sessions are done.
    const cpuSamples: CpuSample[] = [];
    for (const [index, perMinute] of STEPS.entries()) {
      cpuSamples.push(sampleCpu(cpuTargets));
      const recorder = timeline.startStep(index);
      const counts = { started: 0, completed: 0, failed: 0 };
      perStep.push(counts);
      const stepStart = performance.now();
      const offsets = arrivalOffsets(perMinute, STEP_SECONDS, ARRIVALS, random);
      progress(
        `step ${index + 1}: ${perMinute} sessions/min for ${STEP_SECONDS} s (${offsets.length} sessions)`,
      );
      for (const offset of offsets) {
        const wait = stepStart + offset - performance.now();
        if (wait > 0) await sleep(wait);
        if (next >= pupils.length) {
          ranOut = true;
          break;
        }
        const n = next++;
        const [pupilId, entry] = pupils[n];
        const klass = entry.classes[Math.floor(random() * entry.classes.length)];
        counts.started += 1;
        const session =
          n % TEACHER_EVERY === TEACHER_EVERY - 1
            ? teacherSession(client, ledger, { klass, password: PASSWORD, adminCookie })
            : pupilSession(client, ledger, {
                pupil: { id: pupilId, email: entry.email },
                klass,
                password: PASSWORD,
                comments: n % TEACHER_EVERY === 0,
                chatSeconds: CHAT_SECONDS,
              });
        const tracked = session.then(
          (ok) => (ok ? (counts.completed += 1) : (counts.failed += 1)),
          (error: unknown) => {
            counts.failed += 1;
            fail(`a session threw: ${(error as Error).stack ?? String(error)}`);
          },
        );
        running.add(tracked);
        void tracked.finally(() => running.delete(tracked));
      }
      if (ranOut) {
        fail(`ran out of pupils after ${next} sessions: use a larger district or shorter steps`);
        break;
      }
      const verdict = kneeVerdict(recorder.routes(), P95_MS, LATENCY_EXEMPT);
      progress(
        `step ${index + 1} arrivals done; ${running.size} sessions running; so far ${verdict.past ? `past the knee: ${verdict.reasons.join('; ')}` : 'within the limits'}`,
      );
      if (verdict.past && !knee) knee = { step: index, perMinute, reasons: verdict.reasons };
      if (verdict.past && !ALL_STEPS) break;
    }
    // The last sessions finish (their requests count in the last step).
    const drainUntil = Date.now() + DRAIN_SECONDS * 1000;
    while (running.size > 0 && Date.now() < drainUntil) await sleep(250);
    cpuSamples.push(sampleCpu(cpuTargets));
    const ticks = clockTicksPerSecond();
    const abandoned = running.size;
    if (abandoned > 0) fail(`${abandoned} sessions still running ${DRAIN_SECONDS} s after the last step`);
    for (const [index, recorder] of timeline.recorders.entries()) {
      const routes = recorder.routes();
      const verdict = kneeVerdict(routes, P95_MS, LATENCY_EXEMPT);
      const cpu = cpuBetween(cpuSamples[index], cpuSamples[index + 1], ticks);
      steps.push({
        cpuSeconds: cpu,
        step: index,
        perMinute: STEPS[index],
        seconds: STEP_SECONDS,
        sessionsStarted: perStep[index].started,
        sessionsCompleted: perStep[index].completed,
        sessionsFailed: perStep[index].failed,
        sessionsAbandoned: index === timeline.recorders.length - 1 ? abandoned : 0,
        errors: recorder.errorCount(),
        routes,
        knee: verdict,
        errorSamples: recorder.errors.slice(0, 50),
      });
    }
    // With the drain counted in, the last step may be past the knee after all.
    const last = steps.at(-1);
    if (!knee && last?.knee.past)
      knee = { step: last.step, perMinute: last.perMinute, reasons: last.knee.reasons };

    // Counted afterwards: grades stored once, chat delivered in order, comments stored.
    await sleep(1000);
    const writes = await checkWrites(stack.database.url, ledger.comments, ledger.grades);
    const chat = chatDelivery(ledger.peers);
    if (writes.gradesMissing > 0) fail(`${writes.gradesMissing} acknowledged grades are not stored`);
    if (writes.gradeDuplicates > 0) fail(`${writes.gradeDuplicates} grades stored more than once`);
    if (writes.commentsMissing > 0) fail(`${writes.commentsMissing} acknowledged comments are not stored`);
    if (chat.missing + chat.duplicates + chat.outOfOrder + chat.unconfirmed > 0)
      fail(`chat delivery: ${JSON.stringify(chat)}`);
    const totalErrors = steps.reduce((n, s) => n + s.errors, 0);
    // The short form (what CI is to run) fails on any error; a full run expects errors at its knee.
    if (QUICK && totalErrors > 0) fail(`${totalErrors} requests answered with a wrong status or not at all`);

    const run: MorningRun = {
      date: new Date().toISOString(),
      commit: commit(),
      machine,
      pinning: describePinning(pinning),
      settings: {
        quick: QUICK,
        ...SIZE,
        steps: STEPS,
        stepSeconds: STEP_SECONDS,
        chatSeconds: CHAT_SECONDS,
        arrivals: ARRIVALS,
        p95LimitMs: P95_MS,
        teacherEvery: TEACHER_EVERY,
        allSteps: ALL_STEPS,
      },
      replicas: REPLICAS,
      setup: {
        importMs: imported.wallMs,
        importedRows: imported.total,
        projectionsMs: projectionMs,
        classes: classes.length,
        pupils: pupils.length,
        provisionMs: provisionMs,
      },
      steps,
      knee,
      counts: {
        grades: {
          acknowledged: writes.gradesAcknowledged,
          missing: writes.gradesMissing,
          unknown: writes.gradesUnknown,
          duplicates: writes.gradeDuplicates,
        },
        comments: {
          acknowledged: writes.commentsAcknowledged,
          missing: writes.commentsMissing,
          moderated: ledger.moderated,
        },
        chat,
        audioStandInRequests: stack.audio.served(),
        audioListsWithoutTheClassList: ledger.audioListMissing,
      },
      failures,
    };
    writeFileSync(path.join(OUT, 'morning.json'), `${JSON.stringify(run, null, 2)}\n`);
    writeFileSync(path.join(OUT, 'morning.md'), renderMorning(run));
    progress(
      `wrote ${path.join(OUT, 'morning.md')} (${totalErrors} request errors, ${failures.length} failures)`,
    );
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    process.off('SIGINT', interrupted);
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
