import {
  contenderBullets,
  cpuInShort,
  describeCheck,
  loadBullets,
  rateRows,
  renderReport,
  roundsTable,
  signed,
  throughputTable,
  withRange,
  type ReportLayout,
} from './report';
import { assessNoise, judge, serverSeconds, summariseProbe, type Target } from './results';
import { keptUpRate, loadedRound, measuredFixture } from './run.fixture';
import { spread } from './stats';

// The gateway path fell behind: 300 of the 500 req/s asked.
const rate = { ...keptUpRate, gateway: { ...keptUpRate.gateway, achievedRate: 300 } };
const run = {
  ...measuredFixture(
    { probe: 'p', rate: 500, command: 'npm run bench:x -w bench', minutes: 6, topology: 'one process' },
    [loadedRound(20000, 1200, 700), loadedRound(21000, 1100, 650), loadedRound(19000, 1150, 690)],
    [rate, rate, rate],
  ),
  probes: [{ id: 'p', path: '/api/p', headline: true }],
};
const summary = summariseProbe(run, 'p');
const target: Target = {
  id: 't',
  probe: 'p',
  what: 'service ÷ bare',
  source: '§9',
  unit: '×',
  comparator: '>=',
  budget: 0.6,
};

describe('report parts shared by the benchmarks', () => {
  it('quotes a median with the range of the rounds, and signs differences', () => {
    expect(withRange(spread([1100, 1234.4, 1300]))).toBe('1,234 (1,100–1,300)');
    expect(withRange(spread([0.5]), 2)).toBe('0.50');
    expect(withRange(undefined)).toBe('–');
    expect(signed(3.5, 2)).toBe('+3.50');
    expect(signed(-0.25, 1)).toBe('−0.3');
  });

  it('states a target with its verdict, by how much it was missed, or why it was not judged', () => {
    expect(describeCheck(judge(target, 0.75))).toBe(
      '| service ÷ bare | `p` | 0.75 | ≥ 0.6 | **met** (margin 0.15) | §9 |',
    );
    expect(describeCheck(judge(target, 0.45))).toBe(
      '| service ÷ bare | `p` | 0.45 | ≥ 0.6 | **missed** by 0.15 (25 % of the budget) | §9 |',
    );
    const ceiling: Target = { ...target, what: 'p99', unit: 'ms', comparator: '<=', budget: 5 };
    expect(describeCheck(judge(ceiling, 8, { note: 'queued' }))).toBe(
      '| p99 | `p` | 8.00 ms | ≤ 5 ms | **missed** by 3.00 ms: queued | §9 |',
    );
    // A figure that cannot be judged is not shown.
    expect(describeCheck(judge(ceiling, 8, { unjudgeable: 'beyond this machine' }))).toBe(
      '| p99 | `p` | – | ≤ 5 ms | not measured: beyond this machine | §9 |',
    );
  });

  it('tabulates maximum throughput, the ratios in the order asked, and the CPU the gateway adds', () => {
    const table = throughputTable(summary, {
      service: 'svc',
      ratios: ['directOverBare', 'gatewayOverDirect'],
      remark: 'One loop.',
    });
    expect(table[0]).toBe(
      '| contender | req/s | p50 ms | p99 ms | CPU µs/req, answering process | CPU µs/req, PostgreSQL | non-2xx / errors |',
    );
    expect(table[2]).toBe(
      '| bare Node `http` | 20,000 (19,000–21,000) | 1.0 (1.0–1.0) | 3.0 (3.0–3.0) | 5 (5–5) | – | 0 / 0 |',
    );
    expect(table[3]).toMatch(
      /^\| svc direct \| 1,150 \(1,100–1,200\) \| 5\.0 \(5\.0–5\.0\) \| 20\.0 \(20\.0–20\.0\) \| 696 \(667–727\) \| 87 \(83–91\) \| 0 \/ 0 \|$/,
    );
    expect(table).toContain(
      'Throughput ratios (per round, then the median; range over rounds): direct ÷ bare **0.06 (0.05–0.06)**, gateway ÷ direct **0.59 (0.58–0.60)**.',
    );
    expect(table[table.length - 1]).toMatch(
      /\*\* \(svc's own work in the same process: 696 µs\)\. One loop\.$/,
    );
    expect(throughputTable(summary, { service: 'svc', ratios: [] }).at(-1)).toMatch(/µs\)\.$/);
  });

  it('tabulates a fixed rate, with the CPU column when asked', () => {
    const [header, rule, bare] = rateRows(summary.rates[0], 'svc', false);
    expect(header).toBe(
      '| contender | achieved req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | non-2xx / errors / unanswered |',
    );
    expect(rule).toBe('|---|---|---|---|---|---|---|---|');
    expect(bare).toBe(
      '| bare Node `http` | 500 (500–500) | 0.40 (0.40–0.40) | 1.00 (1.00–1.00) | 1.00 (1.00–1.00) | 1.0 (1.0–1.0) | 1.0 (1.0–1.0) | 0 / 0 / 0 |',
    );
    const withCpu = rateRows(summary.rates[0], 'svc', true);
    expect(withCpu[0]).toContain('| max ms | CPU µs/req | non-2xx');
    expect(withCpu[1]).toBe('|---|---|---|---|---|---|---|---|---|');
    // 2 s of CPU for 3,000 answers is 667 µs each.
    expect(withCpu[4]).toMatch(
      /^\| gateway → svc \| 300 \(300–300\) \| 1\.90 \(1\.90–1\.90\) \| .* \| 667 \(667–667\) \| 0 \/ 0 \/ 0 \|$/,
    );
  });

  it('lists every round with the CPU column the benchmark chose', () => {
    const rows = roundsTable(run, { title: 'answering CPU s', seconds: serverSeconds });
    expect(rows[0]).toContain('| p99 ms | answering CPU s | PostgreSQL CPU s |');
    expect(rows).toContain('| max | 1 | `p` | bare | 20,000 | 1.0 | 3.0 | 1.0 | 0.0 | 0.01 |');
    expect(rows).toContain('| 500/s | 3 | `p` | gateway | 300 | 1.90 | 7.50 | 2.0 | 1.0 | 0.01 |');
    expect(rows).toHaveLength(2 + 9 + 9);
  });

  it('says where the CPU per request goes', () => {
    // Per round, the gateway's 9 s for 7,000 requests minus the direct 8 s for 12,000, and so on; the median is 619 µs.
    expect(cpuInShort(summary, 'svc')).toBe(
      '- CPU per request: 5 µs for the bare server, 696 µs for svc (plus 87 µs in PostgreSQL); the gateway adds 619 µs. The ratios follow from these.',
    );
  });

  describe('the whole report', () => {
    const layout: ReportLayout = {
      title: 'X benchmark',
      jsonFile: 'x.json',
      provenance: ', commit abc',
      noise: assessNoise(run),
      steadier: 'the ratios',
      inShort: ['- short'],
      checks: [judge(target, summary.ratios.directOverBare?.median)],
      afterTargets: ['After the targets.', ''],
      measured: [
        ...contenderBullets('svc', 'the same bytes.', ', anonymous'),
        ...loadBullets(run.settings, 'on every probe'),
      ],
      summaries: [summary],
      probeHeading: (s) => `\`${s.probe}\``,
      throughputTable: () => ['THROUGHPUT'],
      rateTable: (level) => [`RATE ${level.rate}`],
      serverColumn: { title: 'launcher CPU s', seconds: (r) => r.cpu.groups.launcher ?? 0 },
    };
    const report = renderReport(run, layout);

    it('lays the sections out in order', () => {
      const headings = report.split('\n').filter((l) => l.startsWith('#'));
      expect(headings).toEqual([
        '# X benchmark',
        '## In short',
        '## Targets',
        '## Machine',
        '## What was measured',
        '## `p`',
        '### Maximum throughput (median of 3 rounds, lowest–highest in brackets)',
        '### Fixed rate, 500 req/s (median of 3 rounds, lowest–highest in brackets)',
        '## Every round',
        '## Reproduce',
      ]);
      expect(report).toContain(
        'Generated by `npm run bench:x -w bench` on 2026-01-01 10:00 UTC (6.0 min), commit abc. Raw figures: [x.json](x.json). Do not edit by hand: rerun the benchmark.',
      );
      expect(report).toContain('| service ÷ bare | `p` | 0.06 | ≥ 0.6 | **missed**');
      expect(report).toContain('\nAfter the targets.\n\n## Machine\n');
      expect(report).toContain('\nTHROUGHPUT\n\n### Fixed rate');
      expect(report).toContain(
        '  - *gateway → svc*: the same request through the gateway (upstream keep-alive agent), anonymous.',
      );
      expect(report).toContain('up to 50 connections, 3 rounds, on every probe. Open loop');
      expect(
        report.endsWith(
          '```sh\napt-get install -y wrk   # once; without it the closed loop falls back to undici\nnpm run bench:x -w bench\n```\n',
        ),
      ).toBe(true);
      expect(report).not.toMatch(/undefined|NaN/);
    });

    it('describes the machine and the load', () => {
      expect(report).toContain('| CPU | Test CPU, 2 cores |');
      expect(report).toContain('| memory | 8.0 GiB |');
      expect(report).toContain('| Node.js | v20.20.0 |');
      expect(report).toContain('| load average (1, 5, 15 min) at start | 0.2, 0.3, 0.4 |');
      expect(report).toContain(
        '| CPU used by other programs during the measurements | median 0.01 cores, max 0.01 (of 2) |',
      );
      // A run recorded before pinning was: its JSON has no such field.
      expect(report).toContain('| CPU pinning | not recorded (this run predates the record) |');
      expect(
        renderReport({ ...run, pinning: { pinned: true, serverCpus: '1', loadCpus: '0' } }, layout),
      ).toContain(
        '| CPU pinning | servers on CPU 1 (`taskset -c 1`: the launcher and everything it starts, the bare server, any proxy); load generator on CPU 0',
      );
      expect(report).not.toContain('Noisy machine');
    });

    it('warns when the machine was busy', () => {
      const busy = { ...run, loadAverage: { start: [6, 5, 4], end: [6, 5, 4] } };
      const noisy = renderReport(busy, { ...layout, noise: assessNoise(busy) });
      expect(noisy).toContain(
        '> **Noisy machine.** the 1-minute load average was 6 when the run started, on 2 cores. Absolute figures are low and spread out; ' +
          'the ratios come from contenders run back to back and are steadier, and the CPU-per-request figures are the least affected.',
      );
    });
  });
});
