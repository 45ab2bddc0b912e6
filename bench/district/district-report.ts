import type { MachineInfo } from '../lib/machine-info';
import { round } from '../lib/stats';

/** Latency of one probe over the measured iterations (each iteration: its parts sent at once, as a page does). */
export interface LatencyFigures {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Answers that were not 2xx, and requests that got no answer. */
  errors: number;
}

/** One of the four district reads, scoped as its user sees it, with an unscoped read of the same data beside it. */
export interface ProbeRecord {
  key: 'dashboard' | 'userSearch' | 'studentQuizzes' | 'teacherClasses';
  title: string;
  /** Who asks and what: "teacher: GET /api/text-quiz-grades?limit=100 + …/summary + …/analysis". */
  scopedAs: string;
  baselineAs: string;
  targetP95Ms: number;
  scoped: LatencyFigures & { parts: Record<string, LatencyFigures>; totals: Record<string, number | null> };
  baseline: LatencyFigures & { parts: Record<string, LatencyFigures>; totals: Record<string, number | null> };
}

/** How long each service's roster projection took to agree with identity, from the moment the import was done. */
export interface ProjectionRecord {
  identity: { classes: number; members: number };
  services: Array<{ service: string; classes: number; members: number; consistentAfterMs: number | null }>;
}

export interface ImportRecord {
  wallMs: number;
  status: string;
  total: number;
  created: number;
  updated: number;
  deactivated: number;
  errorCount: number;
  failure: string | null;
}

/** An EXPLAIN (ANALYZE, BUFFERS) plan auto_explain logged while one probe's part was sent. */
export interface PlanRecord {
  probe: string;
  part: string;
  durationMs: number;
  plan: string;
}

export interface DistrictRun {
  date: string;
  machine: MachineInfo;
  pinning: string;
  /** Load averages (1, 5, 15 min) when the run started and when it ended. */
  loadAverage: { start: number[]; end: number[] };
  database: string;
  settings: {
    quick: boolean;
    schools: number;
    teachers: number;
    students: number;
    seed: number;
    deltaPercent: number;
    resultsPerStudent: number;
    quizzes: number;
    iterations: number;
    warmup: number;
    pageLimit: number;
  };
  district: { zipBytes: number; deltaZipBytes: number; users: number; classes: number; enrollments: number };
  bulk: ImportRecord & { rssBeforeMB: number; rssPeakMB: number; rssGrowthMB: number };
  projection: ProjectionRecord;
  reimport: ImportRecord & { rowsTouched: number; outboxAdded: number };
  delta: ImportRecord;
  projectionAfterDelta: ProjectionRecord;
  grades: { rows: number; quizzes: number; loadMs: number };
  latency: ProbeRecord[];
  plans: PlanRecord[];
  /** Why no plans were kept, when none were. */
  plansNote?: string;
  /** Steps that errored and counts that disagreed: any makes the run fail (exit 1). */
  failures: string[];
  notes?: string;
}

export const TARGETS = {
  bulkImportS: 120,
  importRssGrowthMB: 200,
  projectionS: 30,
  reimportS: 30,
  deltaS: 10,
} as const;

export interface TargetRow {
  target: string;
  figure: string;
  met: boolean;
  /** How far past the target a missed figure is (figure ÷ target), when it is a ratio. */
  over?: number;
}

const seconds = (ms: number) => round(ms / 1000, 1);

/** The slowest service's time to agree, or null when one never did. */
export function slowestProjectionMs(p: ProjectionRecord): number | null {
  if (p.services.length === 0) return null;
  let slowest = 0;
  for (const s of p.services) {
    if (s.consistentAfterMs === null) return null;
    slowest = Math.max(slowest, s.consistentAfterMs);
  }
  return slowest;
}

const within = (target: string, ms: number | null, limitS: number, extra = true): TargetRow => {
  if (ms === null) return { target, figure: 'never consistent', met: false };
  const met = extra && ms <= limitS * 1000;
  return {
    target,
    figure: `${seconds(ms)} s`,
    met,
    ...(ms > limitS * 1000 ? { over: round(ms / (limitS * 1000), 2) } : {}),
  };
};

/** Every target of issue #36's benchmark against the run's figure. */
export function targetRows(run: DistrictRun): TargetRow[] {
  const rows: TargetRow[] = [];
  const bulkDone = run.bulk.status === 'done';
  rows.push(
    within(
      `bulk import of ${run.settings.students.toLocaleString('en')} pupils, upload to done ≤ ${TARGETS.bulkImportS} s`,
      bulkDone ? run.bulk.wallMs : null,
      TARGETS.bulkImportS,
    ),
  );
  rows.push({
    target: `the server's RSS growth during it ≤ ${TARGETS.importRssGrowthMB} MB`,
    figure: `${run.bulk.rssGrowthMB} MB (${run.bulk.rssBeforeMB} → peak ${run.bulk.rssPeakMB} MB)`,
    met: run.bulk.rssGrowthMB <= TARGETS.importRssGrowthMB,
    ...(run.bulk.rssGrowthMB > TARGETS.importRssGrowthMB
      ? { over: round(run.bulk.rssGrowthMB / TARGETS.importRssGrowthMB, 2) }
      : {}),
  });
  for (const s of run.projection.services) {
    rows.push(
      within(
        `${s.service}'s roster projection equal to identity's after the import ≤ ${TARGETS.projectionS} s`,
        s.consistentAfterMs,
        TARGETS.projectionS,
      ),
    );
  }
  const r = run.reimport;
  const wrote = r.created + r.updated + r.deactivated + r.rowsTouched + r.outboxAdded;
  const reimportRow = within(
    `re-import of the same zip: 0 rows written, ≤ ${TARGETS.reimportS} s`,
    r.status === 'done' ? r.wallMs : null,
    TARGETS.reimportS,
    wrote === 0,
  );
  reimportRow.figure += `; ${r.created}/${r.updated}/${r.deactivated} created/updated/deactivated, ${r.rowsTouched} rows' updated_at changed, ${r.outboxAdded} outbox rows`;
  rows.push(reimportRow);
  rows.push(
    within(
      `a ${run.settings.deltaPercent} % delta zip ≤ ${TARGETS.deltaS} s`,
      run.delta.status === 'done' ? run.delta.wallMs : null,
      TARGETS.deltaS,
    ),
  );
  rows.push(
    within(
      `every projection equal to identity's again after the delta ≤ ${TARGETS.projectionS} s (slowest service)`,
      slowestProjectionMs(run.projectionAfterDelta),
      TARGETS.projectionS,
    ),
  );
  for (const p of run.latency) {
    const met = p.scoped.p95 <= p.targetP95Ms && p.scoped.errors === 0;
    rows.push({
      target: `${p.title}: p95 ≤ ${p.targetP95Ms} ms`,
      figure: `${p.scoped.p95} ms${p.scoped.errors ? ` (${p.scoped.errors} errors)` : ''} (unscoped baseline ${p.baseline.p95} ms)`,
      met,
      ...(p.scoped.p95 > p.targetP95Ms ? { over: round(p.scoped.p95 / p.targetP95Ms, 2) } : {}),
    });
  }
  return rows;
}

const verdict = (row: TargetRow) =>
  row.met ? 'met' : row.over !== undefined ? `missed (${row.over}× the target)` : 'missed';

const latencyCells = (f: LatencyFigures) => `${f.p50} | ${f.p95} | ${f.p99} | ${f.max} | ${f.errors}`;

function projectionTable(p: ProjectionRecord): string[] {
  const lines = [
    `identity: ${p.identity.classes.toLocaleString('en')} active classes, ${p.identity.members.toLocaleString('en')} active enrolments in them.`,
    '',
    '| service | roster_classes (active) | roster_members | equal after |',
    '|---|---|---|---|',
  ];
  for (const s of p.services)
    lines.push(
      `| ${s.service} | ${s.classes} | ${s.members} | ${s.consistentAfterMs === null ? 'never (gave up)' : `${seconds(s.consistentAfterMs)} s`} |`,
    );
  return lines;
}

const importLine = (label: string, i: ImportRecord) =>
  `| ${label} | ${i.status}${i.failure ? ` (${i.failure})` : ''} | ${seconds(i.wallMs)} | ${i.total} | ${i.created} | ${i.updated} | ${i.deactivated} | ${i.errorCount} |`;

export function renderDistrictReport(run: DistrictRun): string {
  const host = `${run.machine.cores} CPUs, load ${run.loadAverage.start[0]} → ${run.loadAverage.end[0]}`;
  const lines: string[] = [];
  const s = run.settings;
  lines.push('# District: the 40,000-pupil district measured (issue #36)', '');
  lines.push(
    `A OneRoster 1.2 district of ${s.schools} schools, ${s.teachers.toLocaleString('en')} teachers and ${s.students.toLocaleString('en')} pupils (seed ${s.seed}) imported through the gateway into the standalone topology (\`launcher --target=all\`, DEMO off, an administrator from ADMIN_EMAIL, a throwaway database of the run's own on ${run.database}); then the same zip again, a ${s.deltaPercent} % delta, ${run.grades.rows.toLocaleString('en')} results on ${run.grades.quizzes} quizzes written straight into assessment's tables, and the district's reads timed through the gateway as a teacher, a student and the district administrator, each beside the same read unscoped. Produced by \`npm run bench:district -w bench\` (\`bench/district/\`).${s.quick ? ' **A `--quick` run: a small district, for CI; its figures say nothing about the targets.**' : ''}`,
    '',
  );
  if (run.failures.length > 0) {
    lines.push('## Failures', '');
    for (const f of run.failures) lines.push(`- ${f}`);
    lines.push('');
  }
  lines.push('## Targets', '');
  lines.push('| target | figure | host | verdict |', '|---|---|---|---|');
  for (const row of targetRows(run))
    lines.push(`| ${row.target} | ${row.figure} | ${host} | ${verdict(row)} |`);
  lines.push('', '## Machine', '');
  lines.push(
    `- ${run.machine.cpuModel}, ${run.machine.cores} CPUs, ${run.machine.memoryGiB} GiB; ${run.machine.os} (kernel ${run.machine.kernel}); Node ${run.machine.node}`,
  );
  lines.push(`- ${run.pinning}; the PostgreSQL is the machine's (not pinned)`);
  lines.push(
    `- load average (1/5/15 min) ${run.loadAverage.start.join(' / ')} at the start, ${run.loadAverage.end.join(' / ')} at the end`,
  );
  lines.push(`- run ${run.date}`, '');
  lines.push('## The district', '');
  lines.push(
    `Zip ${round(run.district.zipBytes / 1024, 0).toLocaleString('en')} KB (delta ${round(run.district.deltaZipBytes / 1024, 1)} KB); ${run.district.users.toLocaleString('en')} people, ${run.district.classes.toLocaleString('en')} classes, ${run.district.enrollments.toLocaleString('en')} enrolments.`,
    '',
  );
  lines.push('## Imports', '');
  lines.push(
    '| import | status | seconds | rows | created | updated | deactivated | skipped |',
    '|---|---|---|---|---|---|---|---|',
  );
  lines.push(
    importLine('bulk', run.bulk),
    importLine('the same zip again', run.reimport),
    importLine('delta', run.delta),
  );
  lines.push(
    '',
    `Bulk import: the launcher's VmRSS (sampled every 250 ms) ${run.bulk.rssBeforeMB} MB before the upload, peak ${run.bulk.rssPeakMB} MB. Re-import: ${run.reimport.rowsTouched} rows of identity's users, schools and classes with a newer updated_at, ${run.reimport.outboxAdded} outbox rows added (every schema).`,
    '',
  );
  lines.push('## Projections after the bulk import', '', ...projectionTable(run.projection), '');
  lines.push('## Projections after the delta', '', ...projectionTable(run.projectionAfterDelta), '');
  lines.push('## Latency through the gateway', '');
  lines.push(
    `${s.iterations} sequential iterations per probe after ${s.warmup} not recorded, keep-alive connections; an iteration sends its parts at once (as the page does) and lasts until the last answer. Results: ${run.grades.rows.toLocaleString('en')} (${s.resultsPerStudent} a pupil, on the quizzes of their classes) loaded in ${seconds(run.grades.loadMs)} s, then ANALYZE.`,
    '',
  );
  lines.push(
    '| probe | who, what | p50 ms | p95 ms | p99 ms | max ms | errors | target p95 |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const p of run.latency) {
    lines.push(`| ${p.title} | ${p.scopedAs} | ${latencyCells(p.scoped)} | ${p.targetP95Ms} |`);
    lines.push(`| ↳ baseline, unscoped | ${p.baselineAs} | ${latencyCells(p.baseline)} | — |`);
  }
  lines.push('', '### Each part', '');
  lines.push(
    '| probe | part | p50 ms | p95 ms | p99 ms | max ms | errors | X-Total-Count |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const p of run.latency) {
    for (const [which, side] of [
      ['scoped', p.scoped],
      ['baseline', p.baseline],
    ] as const) {
      for (const [part, f] of Object.entries(side.parts))
        lines.push(`| ${p.title} (${which}) | ${part} | ${latencyCells(f)} | ${side.totals[part] ?? '—'} |`);
    }
  }
  lines.push('', '## Plans (EXPLAIN ANALYZE, BUFFERS)', '');
  if (run.plans.length === 0) lines.push(run.plansNote ?? 'None kept.');
  else {
    lines.push(
      "Logged by auto_explain (log_analyze, log_buffers) for the run's database, in a separate pass after the timed one (the launcher restarted with the setting on, so the timings above carry no instrumentation): the slowest statements of each probe.",
      '',
    );
    for (const plan of run.plans) {
      lines.push(
        `### ${plan.probe}: ${plan.part} (${plan.durationMs} ms)`,
        '',
        '```',
        plan.plan.trimEnd(),
        '```',
        '',
      );
    }
  }
  if (run.notes) lines.push('', '## Notes', '', run.notes.trim());
  return `${lines.join('\n').trimEnd()}\n`;
}
