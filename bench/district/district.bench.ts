import { randomBytes } from 'node:crypto';
import { mkdirSync, openAsBlob, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { generateDistrict, type DistrictOptions } from '@district/nest-common/testing';
import { REPO_ROOT, callerPath } from '../lib/child-processes';
import { createThrowawayDatabase } from '../lib/cluster-infra';
import { describePinning, pinBenchScript, planPinning } from '../lib/cpu-pinning';
import { signInDemo, startLauncher, type RunningLauncher } from '../lib/launcher-stack';
import { describeMachine, loadAverage } from '../lib/machine-info';
import { DistrictDatabase, isBackgroundStatement, plansInLog } from './district-db';
import { measureProbe, type ProbeSpec } from './district-probes';
import {
  renderDistrictReport,
  type DistrictRun,
  type ImportRecord,
  type PlanRecord,
  type ProbeRecord,
} from './district-report';

const USAGE = `District benchmark (issue #36): the 40,000-pupil district through the standalone topology — a OneRoster bulk
import, its projections, the same zip again, a delta, a million results, and the district's reads timed.

  npm run bench:district -w bench -- [options]

  --quick             a district of 300 pupils (3 schools, 12 teachers), 20 iterations, no plans: what CI runs
                      (under 2 minutes; exits 1 on any error or disagreeing count; report to a temporary folder)
  --schools N --teachers N --students N --seed N   the district (default 50, 2000, 40000, 1)
  --delta-percent P   the delta zip's share of changed people and enrolments (default 1)
  --results N         results a pupil (default 25: 1,000,000 for 40,000 pupils)
  --quizzes N         quizzes (default 200: all but ten assigned to classes)
  --iterations N      timed iterations a probe (default 200), after --warmup N (default 20)
  --page N            the grades page's limit (default 100)
  --no-explain        skip the plans (a second start of the launcher with auto_explain on)
  --pg-log FILE       the PostgreSQL server's log, where auto_explain writes (default
                      /var/log/postgresql/postgresql-15-main.log)
  --out DIR           where district.json and district.md go (default bench/reports; --quick: a temporary folder)
  --report-only       render district.md again from district.json in --out (with --notes)
  --notes FILE        Markdown shown at the end of the report (kept in the JSON)
  --keep              keep the database, the launcher's data directory and the zips
  --log-level LEVEL   the launcher's LOG_LEVEL (default warn)
  --no-pin            do not pin the launcher to CPU 1 and this script to CPU 0
  --node-args STR     flags for the launcher's node, to look into its memory (e.g. "--trace-gc")
`;

const { values: a } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    schools: { type: 'string' },
    teachers: { type: 'string' },
    students: { type: 'string' },
    seed: { type: 'string', default: '1' },
    'delta-percent': { type: 'string', default: '1' },
    results: { type: 'string', default: '25' },
    quizzes: { type: 'string', default: '200' },
    iterations: { type: 'string' },
    warmup: { type: 'string' },
    page: { type: 'string', default: '100' },
    'no-explain': { type: 'boolean', default: false },
    'pg-log': { type: 'string', default: '/var/log/postgresql/postgresql-15-main.log' },
    out: { type: 'string' },
    'report-only': { type: 'boolean', default: false },
    notes: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'warn' },
    'no-pin': { type: 'boolean', default: false },
    'node-args': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (a.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const QUICK = a.quick;
const int = (text: string | undefined, fallback: number) => (text === undefined ? fallback : Number(text));
const SETTINGS = {
  quick: QUICK,
  schools: int(a.schools, QUICK ? 3 : 50),
  teachers: int(a.teachers, QUICK ? 12 : 2000),
  students: int(a.students, QUICK ? 300 : 40_000),
  seed: Number(a.seed),
  deltaPercent: Number(a['delta-percent']),
  resultsPerStudent: Number(a.results),
  quizzes: QUICK ? Math.min(Number(a.quizzes), 20) : Number(a.quizzes),
  iterations: int(a.iterations, QUICK ? 20 : 200),
  warmup: int(a.warmup, QUICK ? 5 : 20),
  pageLimit: Number(a.page),
};
const EXPLAIN = !a['no-explain'] && !QUICK;
const OUT = a.out
  ? callerPath(a.out)
  : QUICK
    ? path.join(os.tmpdir(), 'district-bench-quick')
    : path.join(REPO_ROOT, 'bench/reports');
const IMPORT_GIVE_UP_MS = QUICK ? 90_000 : 30 * 60_000;
const PROJECTION_GIVE_UP_MS = QUICK ? 30_000 : 600_000;

const ADMIN = { email: 'bench-admin@district.example', password: randomBytes(12).toString('hex') };
const PASSWORD = randomBytes(12).toString('hex');
/** A teacher and a pupil with a password (users.csv's column), pinned into the first school's first class. */
const PINNED: NonNullable<DistrictOptions['pinned']> = [
  {
    sourcedId: 'bench-teacher',
    role: 'teacher',
    givenName: 'Bench',
    familyName: 'Teacher',
    username: 'bench.teacher',
    email: 'bench.teacher@schools.example',
    password: PASSWORD,
  },
  {
    sourcedId: 'bench-student',
    role: 'student',
    givenName: 'Bench',
    familyName: 'Student',
    username: 'bench.student',
    email: 'bench.student@schools.example',
    password: PASSWORD,
  },
];

const progress = (message: string) =>
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);

function vmRssMB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : 0;
}

/** Uploads a zip as the district administrator and waits for the import to end; the wall time from the upload. */
async function runImport(launcher: RunningLauncher, cookie: string, zip: string): Promise<ImportRecord> {
  const started = Date.now();
  const form = new FormData();
  form.append('file', await openAsBlob(zip, { type: 'application/zip' }), path.basename(zip));
  const res = await fetch(`${launcher.gatewayUrl}/api/admin/roster/imports`, {
    method: 'POST',
    headers: { cookie, origin: launcher.gatewayUrl },
    body: form,
  });
  const text = await res.text();
  if (res.status !== 202)
    throw new Error(`POST /api/admin/roster/imports (${path.basename(zip)}) answered ${res.status}: ${text}`);
  const { id } = JSON.parse(text) as { id: string };
  while (true) {
    const poll = await fetch(`${launcher.gatewayUrl}/api/admin/roster/imports/${id}`, {
      headers: { cookie },
    });
    const body = (await poll.json()) as ImportRecord & { status: string };
    if (poll.status !== 200) throw new Error(`GET /api/admin/roster/imports/${id} answered ${poll.status}`);
    if (body.status === 'done' || body.status === 'failed' || Date.now() - started > IMPORT_GIVE_UP_MS) {
      const { status, total, created, updated, deactivated, errorCount, failure } = body;
      return {
        wallMs: Date.now() - started,
        status,
        total,
        created,
        updated,
        deactivated,
        errorCount,
        failure,
      };
    }
    await sleep(250);
  }
}

interface Sessions {
  admin: string;
  teacher: string;
  student: string;
}

/** The four reads, scoped, each with its unscoped baseline on the same data. */
function probePlan(
  ids: { quizId: string; schoolId: string; prefix: string },
  s: Sessions,
  page: number,
): Array<Omit<ProbeRecord, 'scoped' | 'baseline'> & { scopedSpec: ProbeSpec; baselineSpec: ProbeSpec }> {
  const dashboard = {
    page: `/api/text-quiz-grades?limit=${page}`,
    summary: '/api/text-quiz-grades/summary',
    analysis: `/api/text-quizzes/${ids.quizId}/analysis`,
  };
  return [
    {
      key: 'dashboard',
      title: "(a) a teacher's grades dashboard",
      scopedAs: `teacher: GET ${dashboard.page} + ${dashboard.summary} + ${dashboard.analysis.replace(ids.quizId, '{quiz}')}`,
      baselineAs: 'district administrator: the same three, every result',
      targetP95Ms: 100,
      scopedSpec: { cookie: s.teacher, parts: dashboard },
      baselineSpec: { cookie: s.admin, parts: dashboard },
    },
    {
      key: 'userSearch',
      title: "(b) the administrator's user search",
      scopedAs: `district administrator: GET /api/users?q=${ids.prefix}&limit=100`,
      baselineAs: 'district administrator: GET /api/users?limit=100 (no search)',
      targetP95Ms: 50,
      scopedSpec: { cookie: s.admin, parts: { search: `/api/users?q=${ids.prefix}&limit=100` } },
      baselineSpec: { cookie: s.admin, parts: { list: '/api/users?limit=100' } },
    },
    {
      key: 'studentQuizzes',
      title: "(c) a student's quiz list",
      scopedAs: 'student: GET /api/text-quizzes',
      baselineAs: 'district administrator: GET /api/text-quizzes (every quiz)',
      targetP95Ms: 30,
      scopedSpec: { cookie: s.student, parts: { quizzes: '/api/text-quizzes' } },
      baselineSpec: { cookie: s.admin, parts: { quizzes: '/api/text-quizzes' } },
    },
    {
      key: 'teacherClasses',
      title: "(d) a teacher's class list",
      scopedAs: 'teacher: GET /api/classes',
      baselineAs: "district administrator: GET /api/classes?schoolId={the teacher's school}&limit=100",
      targetP95Ms: 30,
      scopedSpec: { cookie: s.teacher, parts: { classes: '/api/classes' } },
      baselineSpec: {
        cookie: s.admin,
        parts: { classes: `/api/classes?schoolId=${ids.schoolId}&limit=100` },
      },
    },
  ];
}

async function signIn(launcher: RunningLauncher): Promise<Sessions> {
  return {
    admin: await signInDemo(launcher.gatewayUrl, ADMIN.email, ADMIN.password),
    teacher: await signInDemo(launcher.gatewayUrl, PINNED[0].email, PASSWORD),
    student: await signInDemo(launcher.gatewayUrl, PINNED[1].email, PASSWORD),
  };
}

/** Each probe's parts sent a few times with auto_explain on; the slowest statement logged for each part. */
async function collectPlans(
  launcher: RunningLauncher,
  plan: ReturnType<typeof probePlan>,
  database: string,
  pgLog: string,
): Promise<PlanRecord[]> {
  const plans: PlanRecord[] = [];
  for (const probe of plan) {
    for (const [side, spec] of [
      ['scoped', probe.scopedSpec],
      ['baseline', probe.baselineSpec],
    ] as const) {
      for (const [part, url] of Object.entries(spec.parts)) {
        await fetch(`${launcher.gatewayUrl}${url}`, { headers: { cookie: spec.cookie } }).then((r) =>
          r.text(),
        );
        await sleep(300);
        const from = (await stat(pgLog)).size;
        for (let i = 0; i < 2; i++)
          await fetch(`${launcher.gatewayUrl}${url}`, { headers: { cookie: spec.cookie } }).then((r) =>
            r.text(),
          );
        await sleep(500);
        const to = (await stat(pgLog)).size;
        const handle = await open(pgLog, 'r');
        const buffer = Buffer.alloc(to - from);
        await handle.read(buffer, 0, buffer.length, from);
        await handle.close();
        const found = plansInLog(buffer.toString('utf8'), database)
          .filter((p) => !isBackgroundStatement(p.plan))
          .sort((x, y) => y.durationMs - x.durationMs);
        if (found[0]) {
          const lines = found[0].plan.trimEnd().split('\n');
          plans.push({
            probe: `${probe.title} (${side})`,
            part: `${part}: GET ${url}`,
            durationMs: found[0].durationMs,
            plan:
              lines.length > 80
                ? [...lines.slice(0, 80), `… (${lines.length - 80} more lines)`].join('\n')
                : lines.join('\n'),
          });
        }
      }
    }
  }
  return plans;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const notes = a.notes ? readFileSync(callerPath(a.notes), 'utf8') : undefined;
  if (a['report-only']) {
    const kept = JSON.parse(readFileSync(path.join(OUT, 'district.json'), 'utf8')) as DistrictRun;
    if (notes !== undefined) kept.notes = notes;
    writeFileSync(path.join(OUT, 'district.json'), `${JSON.stringify(kept, null, 2)}\n`);
    writeFileSync(path.join(OUT, 'district.md'), renderDistrictReport(kept));
    return;
  }
  // The machine before this script is pinned, which narrows the CPUs Node counts.
  const machine = describeMachine();
  const pinning = planPinning(!a['no-pin']);
  progress(pinBenchScript(pinning));
  const loadStart = loadAverage();
  const failures: string[] = [];
  const fail = (message: string) => {
    failures.push(message);
    progress(`FAILURE: ${message}`);
  };
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'district-bench-'));
  const db = await createThrowawayDatabase('bench_district', progress);
  let launcher: RunningLauncher | undefined;
  let dbc: DistrictDatabase | undefined;
  const cleanUp = async () => {
    await launcher?.stop().catch(() => undefined);
    await dbc?.close().catch(() => undefined);
    if (!a.keep) {
      await db.drop().catch(() => undefined);
      await rm(scratch, { recursive: true, force: true });
    } else progress(`kept: database ${db.name}, zips in ${scratch}`);
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));
  try {
    const shape: DistrictOptions = {
      schools: SETTINGS.schools,
      teachers: SETTINGS.teachers,
      students: SETTINGS.students,
      seed: SETTINGS.seed,
      pinned: PINNED,
    };
    const bulkZip = path.join(scratch, 'district.zip');
    const deltaZip = path.join(scratch, 'district-delta.zip');
    await generateDistrict({ ...shape, out: bulkZip });
    await generateDistrict({ ...shape, deltaPercent: SETTINGS.deltaPercent, out: deltaZip });
    progress(
      `generated ${bulkZip} (${statSync(bulkZip).size} bytes) and its ${SETTINGS.deltaPercent} % delta`,
    );

    const startOptions = {
      logLevel: a['log-level'],
      keep: a.keep,
      services: ['identity', 'assessment', 'chat', 'classroom'],
      prefix: 'district-bench-launcher-',
      cpus: pinning.serverCpus,
      nodeArgs: a['node-args']?.split(/\s+/).filter(Boolean),
      env: {
        DATABASE_URL: db.url,
        DEMO: 'false',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
    };
    launcher = await startLauncher(startOptions);
    progress(`launcher up at ${launcher.gatewayUrl} (pid ${launcher.pid}, log ${launcher.logFile})`);
    dbc = await DistrictDatabase.connect(db.url);
    const admin = await signInDemo(launcher.gatewayUrl, ADMIN.email, ADMIN.password);

    // 2. The bulk import, with the launcher's RSS sampled throughout.
    const pid = launcher.pid;
    const rssBeforeMB = vmRssMB(pid);
    let rssPeakMB = rssBeforeMB;
    const sampler = setInterval(() => {
      try {
        rssPeakMB = Math.max(rssPeakMB, vmRssMB(pid));
      } catch {
        // The launcher exited: the import's wait reports it.
      }
    }, 250);
    const bulkImport = await runImport(launcher, admin, bulkZip).finally(() => clearInterval(sampler));
    const bulkDoneAt = Date.now();
    progress(`bulk import ${bulkImport.status} in ${bulkImport.wallMs} ms: ${JSON.stringify(bulkImport)}`);
    if (bulkImport.status !== 'done')
      fail(`the bulk import ended ${bulkImport.status}: ${bulkImport.failure}`);
    if (bulkImport.errorCount > 0) fail(`the bulk import skipped ${bulkImport.errorCount} rows`);

    // 3. Projections.
    const projection = await dbc.waitConsistent(bulkDoneAt, 250, PROJECTION_GIVE_UP_MS);
    progress(`projections after the import: ${JSON.stringify(projection)}`);
    for (const s of projection.services)
      if (s.consistentAfterMs === null)
        fail(
          `${s.service}'s projection (${s.classes} classes, ${s.members} members) never matched identity's (${projection.identity.classes}, ${projection.identity.members})`,
        );
    const district = await dbc.districtCounts();

    // 4. The same zip again, then the delta.
    const before = await dbc.now();
    const again = await runImport(launcher, admin, bulkZip);
    const writes = await dbc.writesSince(before);
    const reimport = { ...again, ...writes };
    progress(`re-import ${reimport.status} in ${reimport.wallMs} ms: ${JSON.stringify(reimport)}`);
    if (reimport.status !== 'done') fail(`the re-import ended ${reimport.status}: ${reimport.failure}`);
    const written =
      reimport.created + reimport.updated + reimport.deactivated + writes.rowsTouched + writes.outboxAdded;
    if (written > 0) fail(`the re-import of the same zip wrote: ${JSON.stringify(reimport)}`);
    const delta = await runImport(launcher, admin, deltaZip);
    const deltaDoneAt = Date.now();
    progress(`delta ${delta.status} in ${delta.wallMs} ms: ${JSON.stringify(delta)}`);
    if (delta.status !== 'done') fail(`the delta import ended ${delta.status}: ${delta.failure}`);
    if (delta.errorCount > 0) fail(`the delta import skipped ${delta.errorCount} rows`);
    if (delta.updated + delta.deactivated + delta.created === 0) fail('the delta import changed nothing');
    const projectionAfterDelta = await dbc.waitConsistent(deltaDoneAt, 250, PROJECTION_GIVE_UP_MS);
    progress(`projections after the delta: ${JSON.stringify(projectionAfterDelta)}`);
    for (const s of projectionAfterDelta.services)
      if (s.consistentAfterMs === null)
        fail(`${s.service}'s projection never matched identity's after the delta`);

    // 5. Results.
    const gradesStarted = Date.now();
    const loaded = await dbc.loadGrades(SETTINGS.quizzes, SETTINGS.resultsPerStudent);
    const grades = { ...loaded, loadMs: Date.now() - gradesStarted };
    progress(`loaded ${grades.rows} results on ${grades.quizzes} quizzes in ${grades.loadMs} ms`);
    if (grades.rows === 0) fail('no results were loaded (no pupil in a class?)');

    // 6. Latency through the gateway.
    const sessions = await signIn(launcher);
    const teacherId = await dbc.userIdByEmail(PINNED[0].email);
    const ids = {
      quizId: await dbc.quizOfTeacher(teacherId),
      schoolId: await dbc.firstSchoolOf(teacherId),
      prefix: await dbc.commonPrefix(),
    };
    const plan = probePlan(ids, sessions, SETTINGS.pageLimit);
    const latency: ProbeRecord[] = [];
    for (const probe of plan) {
      const options = { warmup: SETTINGS.warmup, iterations: SETTINGS.iterations, onError: fail };
      const scoped = await measureProbe(launcher.gatewayUrl, probe.scopedSpec, options);
      const baseline = await measureProbe(launcher.gatewayUrl, probe.baselineSpec, options);
      const { scopedSpec: _s, baselineSpec: _b, ...record } = probe;
      latency.push({ ...record, scoped, baseline });
      progress(
        `${probe.title}: p95 ${scoped.p95} ms (baseline ${baseline.p95} ms), totals ${JSON.stringify(scoped.totals)}`,
      );
    }
    const dashboard = latency.find((p) => p.key === 'dashboard');
    if (dashboard && !(Number(dashboard.scoped.totals.page) > 0))
      fail(`the teacher's grades page counted ${dashboard.scoped.totals.page} results`);

    // The plans: the launcher again, with auto_explain on for the database's sessions.
    let plans: PlanRecord[] = [];
    let plansNote: string | undefined = QUICK
      ? 'Not collected in a --quick run.'
      : 'Not collected (--no-explain).';
    if (EXPLAIN) {
      try {
        await stat(a['pg-log']);
        await launcher.stop();
        await dbc.autoExplain(db.name, true);
        launcher = await startLauncher(startOptions);
        plans = await collectPlans(
          launcher,
          probePlan(ids, await signIn(launcher), SETTINGS.pageLimit),
          db.name,
          a['pg-log'],
        );
        plansNote =
          plans.length === 0 ? `auto_explain logged nothing for ${db.name} in ${a['pg-log']}.` : undefined;
      } catch (error) {
        plansNote = `Not collected: ${(error as Error).message}`;
      } finally {
        await dbc.autoExplain(db.name, false);
      }
      progress(`kept ${plans.length} plans${plansNote ? ` (${plansNote})` : ''}`);
    }

    const run: DistrictRun = {
      date: new Date().toISOString(),
      machine,
      pinning: describePinning(pinning),
      loadAverage: { start: loadStart, end: loadAverage() },
      database: 'the machine’s PostgreSQL (127.0.0.1:5432)',
      settings: SETTINGS,
      district: { zipBytes: statSync(bulkZip).size, deltaZipBytes: statSync(deltaZip).size, ...district },
      bulk: { ...bulkImport, rssBeforeMB, rssPeakMB, rssGrowthMB: rssPeakMB - rssBeforeMB },
      projection,
      reimport,
      delta,
      projectionAfterDelta,
      grades,
      latency,
      plans,
      ...(plansNote ? { plansNote } : {}),
      failures,
      ...(notes ? { notes } : {}),
    };
    writeFileSync(path.join(OUT, 'district.json'), `${JSON.stringify(run, null, 2)}\n`);
    writeFileSync(path.join(OUT, 'district.md'), renderDistrictReport(run));
    progress(`wrote ${path.join(OUT, 'district.md')}`);
  } finally {
    await cleanUp();
  }
  if (failures.length > 0) {
    progress(`${failures.length} failure(s):\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
