import { isBackgroundStatement, plansInLog } from './district-db';
import {
  renderDistrictReport,
  slowestProjectionMs,
  targetRows,
  type DistrictRun,
  type LatencyFigures,
  type ProbeRecord,
  type ProjectionRecord,
} from './district-report';

const figures = (p95: number, errors = 0): LatencyFigures => ({
  n: 200,
  p50: p95 / 2,
  p95,
  p99: p95 * 1.2,
  max: p95 * 2,
  errors,
});

const probe = (key: ProbeRecord['key'], targetP95Ms: number, p95: number, errors = 0): ProbeRecord => ({
  key,
  title: `probe ${key}`,
  scopedAs: 'someone: GET /x',
  baselineAs: 'admin: GET /x',
  targetP95Ms,
  scoped: { ...figures(p95, errors), parts: { x: figures(p95, errors) }, totals: { x: 1000 } },
  baseline: { ...figures(p95 * 2), parts: { x: figures(p95 * 2) }, totals: { x: 1_000_000 } },
});

const projection = (after: Array<number | null>): ProjectionRecord => ({
  identity: { classes: 4000, members: 164_000 },
  services: after.map((consistentAfterMs, i) => ({
    service: ['assessment', 'chat', 'classroom'][i],
    classes: 4000,
    members: 164_000,
    consistentAfterMs,
  })),
});

const importRecord = (wallMs: number, extra = {}) => ({
  wallMs,
  status: 'done',
  total: 210_000,
  created: 0,
  updated: 0,
  deactivated: 0,
  errorCount: 0,
  failure: null,
  ...extra,
});

function run(overrides: Partial<DistrictRun> = {}): DistrictRun {
  return {
    date: '2026-12-07T20:00:00.000Z',
    machine: {
      cpuModel: 'Test CPU',
      cores: 2,
      memoryGiB: 8,
      node: 'v20.19.0',
      os: 'Linux x64',
      kernel: '6.1',
    },
    pinning: 'servers on CPU 1',
    loadAverage: { start: [0.1, 0.2, 0.3], end: [0.5, 0.4, 0.3] },
    database: 'test PostgreSQL',
    settings: {
      quick: false,
      schools: 50,
      teachers: 2000,
      students: 40_000,
      seed: 1,
      deltaPercent: 1,
      resultsPerStudent: 25,
      quizzes: 200,
      iterations: 200,
      warmup: 20,
      pageLimit: 100,
    },
    district: {
      zipBytes: 5_000_000,
      deltaZipBytes: 60_000,
      users: 42_050,
      classes: 4200,
      enrollments: 166_000,
    },
    bulk: {
      ...importRecord(90_000, { created: 210_000 }),
      rssBeforeMB: 300,
      rssPeakMB: 450,
      rssGrowthMB: 150,
    },
    projection: projection([2000, 3000, 2500]),
    reimport: { ...importRecord(20_000), rowsTouched: 0, outboxAdded: 0 },
    delta: importRecord(5000, { updated: 400, deactivated: 80 }),
    projectionAfterDelta: projection([500, 800, 700]),
    grades: { rows: 1_000_000, quizzes: 200, loadMs: 60_000 },
    latency: [
      probe('dashboard', 100, 80),
      probe('userSearch', 50, 20),
      probe('studentQuizzes', 30, 10),
      probe('teacherClasses', 30, 12),
    ],
    plans: [],
    failures: [],
    ...overrides,
  };
}

describe('targetRows', () => {
  it('meets every target of a run within them', () => {
    const rows = targetRows(run());
    expect(rows).toHaveLength(2 + 3 + 3 + 4);
    expect(rows.filter((r) => !r.met)).toEqual([]);
  });

  it('misses a slow import, RSS growth, a slow projection and a slow probe, by how much', () => {
    const rows = targetRows(
      run({
        bulk: { ...importRecord(180_000), rssBeforeMB: 300, rssPeakMB: 700, rssGrowthMB: 400 },
        projection: projection([2000, 45_000, null]),
        latency: [probe('dashboard', 100, 150), probe('userSearch', 50, 20, 3)],
      }),
    );
    const missed = rows.filter((r) => !r.met);
    expect(missed.map((r) => [r.target.slice(0, 20), r.over])).toEqual([
      ['bulk import of 40,00', 1.5],
      ["the server's RSS gro", 2],
      ["chat's roster projec", 1.5],
      ["classroom's roster p", undefined],
      ['probe dashboard: p95', 1.5],
      ['probe userSearch: p9', undefined],
    ]);
    expect(rows.find((r) => r.target.startsWith("classroom's"))?.figure).toBe('never consistent');
  });

  it('misses a re-import that wrote anything, however fast', () => {
    for (const wrote of [{ updated: 1 }, { rowsTouched: 2 }, { outboxAdded: 1 }]) {
      const rows = targetRows(
        run({ reimport: { ...importRecord(1000), rowsTouched: 0, outboxAdded: 0, ...wrote } }),
      );
      expect(rows.find((r) => r.target.startsWith('re-import'))?.met).toBe(false);
    }
  });

  it('misses an import that did not finish', () => {
    const rows = targetRows(run({ delta: importRecord(3000, { status: 'failed', failure: 'boom' }) }));
    expect(rows.find((r) => r.target.startsWith('a 1 % delta'))).toMatchObject({
      met: false,
      figure: 'never consistent',
    });
  });
});

describe('slowestProjectionMs', () => {
  it('is the slowest service, or null when one never agreed', () => {
    expect(slowestProjectionMs(projection([1, 5, 3]))).toBe(5);
    expect(slowestProjectionMs(projection([1, null, 3]))).toBeNull();
  });
});

describe('renderDistrictReport', () => {
  it('leads with the one targets table, then the machine, and lists failures first when any', () => {
    const md = renderDistrictReport(run({ failures: ['the delta import skipped 3 rows'] }));
    const failures = md.indexOf('## Failures');
    const targets = md.indexOf('## Targets');
    const machine = md.indexOf('## Machine');
    expect(failures).toBeGreaterThan(0);
    expect(targets).toBeGreaterThan(failures);
    expect(machine).toBeGreaterThan(targets);
    expect(md).toContain(
      '| probe dashboard: p95 ≤ 100 ms | 80 ms (unscoped baseline 160 ms) | 2 CPUs, load 0.1 → 0.5 | met |',
    );
    expect(md).toContain('load average (1/5/15 min) 0.1 / 0.2 / 0.3 at the start');
    expect(md).toContain('| probe dashboard (baseline) | x | 80 | 160 | 192 | 320 | 0 | 1000000 |');
  });

  it('prints the plans kept, or why there are none', () => {
    expect(renderDistrictReport(run({ plansNote: 'Not collected (--no-explain).' }))).toContain(
      'Not collected (--no-explain).',
    );
    const md = renderDistrictReport(
      run({
        plans: [
          {
            probe: 'probe dashboard (scoped)',
            part: 'x: GET /x',
            durationMs: 12.5,
            plan: 'Seq Scan on grades',
          },
        ],
      }),
    );
    expect(md).toContain('### probe dashboard (scoped): x: GET /x (12.5 ms)\n\n```\nSeq Scan on grades\n```');
  });
});

describe('plansInLog', () => {
  it("keeps auto_explain's entries of the run's database only, continuation lines included", () => {
    const log = [
      '2026-12-07 20:00:00.001 UTC [11] postgres@bench_district_1 LOG:  duration: 12.345 ms  plan:',
      '\tQuery Text: SELECT 1',
      '\tResult  (cost=0.00..0.01 rows=1 width=4) (actual time=0.001..0.001 rows=1 loops=1)',
      '2026-12-07 20:00:00.002 UTC [12] postgres@other_db LOG:  duration: 99.000 ms  plan:',
      '\tQuery Text: SELECT 2',
      '2026-12-07 20:00:00.003 UTC [11] postgres@bench_district_1 LOG:  statement: SELECT 3',
      '2026-12-07 20:00:00.004 UTC [11] postgres@bench_district_1 LOG:  duration: 1.5 ms  plan:',
      '\tQuery Text: SELECT 4',
    ].join('\n');
    expect(plansInLog(log, 'bench_district_1')).toEqual([
      {
        durationMs: 12.345,
        plan: 'Query Text: SELECT 1\nResult  (cost=0.00..0.01 rows=1 width=4) (actual time=0.001..0.001 rows=1 loops=1)',
      },
      { durationMs: 1.5, plan: 'Query Text: SELECT 4' },
    ]);
  });
});

describe('isBackgroundStatement', () => {
  it("tells the relays' and locks' statements from a probe's", () => {
    expect(
      isBackgroundStatement(
        'Query Text: UPDATE "identity"."outbox" SET "claimed_until" = now()\n  WHERE "id" IN (…)\nUpdate on outbox',
      ),
    ).toBe(true);
    expect(
      isBackgroundStatement('Query Text: SELECT pg_advisory_unlock(hashtextextended($1, 0))\nResult'),
    ).toBe(true);
    expect(
      isBackgroundStatement(
        'Query Text: SELECT g.id FROM grades g\n WHERE g.user_id = ANY($1)\nSort  (cost=1..2)\n  ->  Index Scan',
      ),
    ).toBe(false);
  });
});
