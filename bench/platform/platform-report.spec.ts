import { renderPlatformReport } from './platform-report';
import { checkPlatformTargets, ratioOf, type PlatformRun } from './platform-results';
import { platformFixture } from './platform-run.fixture';

describe('platform report', () => {
  // Rendered from the JSON as platform.json holds it, as --report-only does.
  const run = JSON.parse(JSON.stringify(platformFixture())) as PlatformRun;
  const report = renderPlatformReport(run);

  it('states every target with its verdict, ratios paired by round', () => {
    expect(report).toContain(
      '| standalone gateway ÷ content direct | `page` | 0.93 | ≥ 0.9 | **met** (margin 0.03) | issue 10 |',
    );
    expect(report).toContain(
      '| cluster gateway ÷ minimal proxy (each in its own process) | `page` | 1.02 | ≥ 1.0 | **met** (margin 0.02) | issue 10 |',
    );
    expect(report).toContain(
      '| identity `/healthz` ÷ bare Node `http` (framework overhead) | `healthz` | 0.40 | ≥ 0.6 | **missed** by 0.20 (33 % of the budget) | issue 10 |',
    );
    expect(report).toContain(
      '| content direct ÷ bare Node `http` | `page` | 0.60 | ≥ 0.5 | **met** (margin 0.10) | issue 10 |',
    );
    expect(report).toContain(
      '| `/api/auth/me` CPU per request, identity direct (launcher process) | `me` | 400.00 µs | ≤ 300 µs | **missed** by 100.00 µs | issue 10 |',
    );
    expect(report).toContain(
      '| `/api/auth/me` standalone gateway ÷ identity direct | `me` | 0.85 | ≥ 0.9 | **missed** by 0.05 (6 % of the budget) | issue 10 |',
    );
  });

  it('pairs the rounds: a ratio of medians would differ', () => {
    expect(ratioOf(run, 'page', 'cluster-gateway', 'minimal-proxy')?.values).toEqual([0.9375, 1.1]);
    expect(checkPlatformTargets(run).map((c) => c.verdict)).toEqual([
      'met',
      'met',
      'missed',
      'met',
      'missed',
      'missed',
    ]);
  });

  it('gives the CPU per request of every process answering, the proxies apart from content', () => {
    expect(report).toContain(
      '| bare Node `http` | 10,500 (10,000–11,000) | 5.0 (5.0–5.0) | 20.0 (20.0–20.0) | 40 (40–40) | – | – | 0 / 0 |',
    );
    expect(report).toContain(
      '| content direct | 6,300 (6,000–6,600) | 5.0 (5.0–5.0) | 20.0 (20.0–20.0) | 117 (117–117) | – | 2 (2–2) | 0 / 0 |',
    );
    expect(report).toContain(
      '| cluster gateway (own process) → content | 3,150 (3,000–3,300) | 5.0 (5.0–5.0) | 20.0 (20.0–20.0) | 300 (300–300) | cluster gateway 200, launcher 100 |',
    );
    expect(report).toContain(
      '| minimal proxy (own process) → content | 3,100 (3,000–3,200) | 5.0 (5.0–5.0) | 20.0 (20.0–20.0) | 225 (225–225) | minimal proxy 125, launcher 100 |',
    );
    expect(report).toContain(
      'cluster gateway (own process) → content ÷ minimal proxy (own process) → content **1.02 (0.94–1.10)**',
    );
    expect(report).toContain(
      '- In front of content in its own process, the cluster gateway spends 200 µs of CPU per request, the minimal proxy 125 µs.',
    );
    expect(report).toContain(
      "- `GET /api/auth/me`: 400 µs of the launcher's CPU per request direct, 500 µs through the standalone gateway (plus 20 µs in PostgreSQL).",
    );
  });

  it('says how the processes were pinned, and that an older run did not record it', () => {
    expect(report).toContain('| CPU pinning | servers on CPU 1 (`taskset -c 1`');
    const { pinning: _dropped, ...older } = run;
    expect(renderPlatformReport(older)).toContain(
      '| CPU pinning | not recorded (this run predates the record) |',
    );
    expect(
      renderPlatformReport({ ...run, pinning: { pinned: false, reason: 'turned off with --no-pin' } }),
    ).toContain('| CPU pinning | not pinned: turned off with --no-pin |');
  });

  it('lays out a section a probe, every round, and no fixed-rate phase', () => {
    const headings = report.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## In short',
      '## Targets',
      '## Machine',
      '## What was measured',
      '## `page`: `GET /api/posts/public?limit=20`',
      '## `healthz`: `GET /healthz`',
      '## `me`: `GET /api/auth/me`',
      '## Every round',
      '## Reproduce',
    ]);
    expect(report).not.toContain('Fixed rate');
    expect(report).toContain('| max | 2 | `page` | minimal-proxy | 3,000 | 5.0 | 20.0 | 6.8 | 0.0 | 0.01 |');
    expect(report).not.toMatch(/undefined|NaN/);
  });
});
