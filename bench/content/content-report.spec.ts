import { keptUpRate, loadedRound } from '../lib/run.fixture';
import { renderContentReport } from './content-report';
import { fixtureRun } from './content-run.fixture';

describe('content report', () => {
  const run = fixtureRun(
    [loadedRound(20000, 9000, 4000), loadedRound(21000, 9500, 4200), loadedRound(19000, 8500, 3900)],
    [keptUpRate, keptUpRate, keptUpRate],
  );
  const report = renderContentReport(run);

  it('states every target with its verdict', () => {
    expect(report).toContain(
      '| throughput via the gateway ÷ bare Node http server, same JSON | `page` | 0.20 | ≥ 0.4 | **missed** by 0.20 (50 % of the budget) | issue; ARCHITECTURE.md §9 |',
    );
    expect(report).toContain(
      '| p99 via the gateway at 1000 req/s | `page` | 7.50 ms | ≤ 50 ms | **met** (margin 42.50 ms) | issue; ARCHITECTURE.md §9 |',
    );
    expect(report).toContain(
      '| content endpoint direct ÷ bare Node http server | `page` | 0.45 | ≥ 0.6 | **missed** by 0.15 (25 % of the budget) |',
    );
  });

  it('says what the throughput budget leaves per request, and who spends it', () => {
    // 0.4 × 20,000 = 8,000 req/s, 125 µs each; the gateway path spends 9 s for 40,000 requests = 225 µs,
    // content alone 8 s for 90,000 = 89 µs, so the gateway adds 136 µs.
    expect(report).toContain(
      '- 0.4 of the bare server is 8,000 req/s through the gateway: at most 125 µs of CPU per request in the launcher process, ' +
        "which runs gateway and content on one event loop. It spends 225 µs, of which the gateway's proxying is 136 µs and content's own work 89 µs.",
    );
  });

  it('describes the data and the code measured', () => {
    expect(report).toContain('- **Data**: 10,000 published posts in 8 categories (9,994 added in 7.0 s).');
    expect(report).toContain('commit 0123456789.');
    expect(report).not.toContain('Noisy machine');
  });

  it('gives medians with the range of the rounds, and the baseline of the same run', () => {
    expect(report).toContain('| bare Node `http` | 20,000 (19,000–21,000) |');
    expect(report).toContain('| content direct | 9,000 (8,500–9,500) |');
    expect(report).toContain('gateway ÷ bare **0.20 (0.20–0.21)**');
  });

  it('compares with an earlier run and shows the notes when the run carries them', () => {
    expect(report).not.toContain('## Before and after');
    const before = fixtureRun([loadedRound(20000, 180, 120)], [], {
      code: { commit: 'fedcba9876543210', dirty: true, label: 'before' },
    });
    const compared = renderContentReport({ ...run, before, notes: '## What changed\n\nA cache.' });
    expect(compared).toContain('## What changed\n\nA cache.');
    expect(compared).toContain('## Before and after');
    expect(compared).toContain('*before* (2026-01-01 10:00 UTC, commit fedcba9876 with uncommitted changes)');
    expect(compared).toContain('| `page` | direct | 180 → 9,000 | 50× |');
  });

  it('leaves no hole in the text', () => {
    expect(report).not.toMatch(/undefined|NaN/);
  });
});
