import { renderGatewayReport } from './gateway-report';
import { fixtureRun } from './gateway-run.fixture';

const round = (bare: number, direct: number, gateway: number) => ({
  bare: { reqPerSec: bare, p50: 1, p99: 3, serverCpu: 1 },
  direct: { reqPerSec: direct, p50: 5, p99: 20, serverCpu: 8 },
  gateway: { reqPerSec: gateway, p50: 8, p99: 30, serverCpu: 9 },
});
const rate = {
  bare: { reqPerSec: 0, p50: 0.4, p99: 1 },
  direct: { reqPerSec: 0, p50: 1.2, p99: 4 },
  gateway: { reqPerSec: 0, p50: 1.9, p99: 7.5 },
};

describe('gateway report', () => {
  const run = fixtureRun([round(20000, 1200, 700), round(21000, 1100, 650), round(19000, 1150, 690)], [rate, rate, rate]);
  const report = renderGatewayReport(run);

  it('states every target with its verdict', () => {
    expect(report).toContain(
      '| throughput through the gateway ÷ direct to identity | `me` | 0.59 | ≥ 0.5 | **met** (margin 0.09) | issue; ARCHITECTURE.md §9 |',
    );
    expect(report).toContain('| p99 added by the gateway at 500 req/s | `me` | 3.50 ms | ≤ 5 ms | **met** (margin 1.50 ms) |');
    expect(report).toContain(
      '| identity endpoint ÷ bare Node http server, same JSON | `me` | 0.06 | ≥ 0.6 | **missed** by 0.54 (90 % of the budget) |',
    );
  });

  it('describes the machine and the load', () => {
    expect(report).toContain('| CPU | Test CPU, 2 cores |');
    expect(report).toContain('| Node.js | v20.20.0 |');
    expect(report).toContain('| load average (1, 5, 15 min) at start | 0.2, 0.3, 0.4 |');
    expect(report).not.toContain('Noisy machine');
  });

  it('gives medians with the range of the rounds, and the baseline of the same run', () => {
    expect(report).toContain('| bare Node `http` | 20,000 (19,000–21,000) |');
    expect(report).toContain('| identity direct | 1,150 (1,100–1,200) |');
    expect(report).toContain('p99 **+3.50 ms**');
  });

  it('warns when the machine was busy', () => {
    const noisy = renderGatewayReport({ ...run, loadAverage: { start: [6, 5, 4], end: [6, 5, 4] } });
    expect(noisy).toContain('> **Noisy machine.** the 1-minute load average was 6 when the run started, on 2 cores.');
  });

  it('leaves no hole in the text', () => {
    expect(report).not.toMatch(/undefined|NaN/);
  });
});
