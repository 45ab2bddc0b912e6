import { keptUpRate, loadedRound } from '../lib/run.fixture';
import { renderGatewayReport } from './gateway-report';
import { fixtureRun } from './gateway-run.fixture';

describe('gateway report', () => {
  const run = fixtureRun(
    [loadedRound(20000, 1200, 700), loadedRound(21000, 1100, 650), loadedRound(19000, 1150, 690)],
    [keptUpRate, keptUpRate, keptUpRate],
  );
  const report = renderGatewayReport(run);

  it('states every target with its verdict', () => {
    expect(report).toContain(
      '| throughput through the gateway ÷ direct to identity | `me` | 0.59 | ≥ 0.5 | **met** (margin 0.09) | issue; ARCHITECTURE.md §9 |',
    );
    expect(report).toContain(
      '| p99 added by the gateway at 500 req/s | `me` | 3.50 ms | ≤ 5 ms | **met** (margin 1.50 ms) |',
    );
    expect(report).toContain(
      '| identity endpoint ÷ bare Node http server, same JSON | `me` | 0.06 | ≥ 0.6 | **missed** by 0.54 (90 % of the budget) |',
    );
  });

  it('gives medians with the range of the rounds, and the baseline of the same run', () => {
    expect(report).toContain('| bare Node `http` | 20,000 (19,000–21,000) |');
    expect(report).toContain('| identity direct | 1,150 (1,100–1,200) |');
    expect(report).toContain('p99 **+3.50 ms**');
  });

  it('says the ratios and the differences are steadier on a busy machine', () => {
    const noisy = renderGatewayReport({ ...run, loadAverage: { start: [6, 5, 4], end: [6, 5, 4] } });
    expect(noisy).toContain(
      '> **Noisy machine.** the 1-minute load average was 6 when the run started, on 2 cores.',
    );
    expect(noisy).toContain('the ratios and differences come from contenders run back to back');
  });

  it('leaves no hole in the text', () => {
    expect(report).not.toMatch(/undefined|NaN/);
  });
});
