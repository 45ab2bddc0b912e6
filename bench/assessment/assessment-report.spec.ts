import {
  clean,
  highestClean,
  renderAssessmentReport,
  type AssessmentRun,
  type BurstRecord,
} from './assessment-report';
import { planBurst } from './submissions';

const burst = (rate: number, p99: number, extra: Partial<BurstRecord> = {}): BurstRecord => ({
  rate,
  durationMs: 10_000,
  attempts: rate * 10,
  requests: rate * 11,
  retries: rate,
  ok: rate * 11,
  non2xx: {},
  failed: 0,
  retryMismatches: 0,
  latency: { mean: p99 / 3, p50: p99 / 4, p90: p99 / 2, p99, p999: p99 * 1.2, max: p99 * 1.5 },
  elapsedMs: 10_050,
  achievedRate: rate,
  stored: rate * 10,
  duplicates: 0,
  lost: 0,
  loadAverageBefore: 0.1,
  ...extra,
});

describe('planBurst', () => {
  const plan = (retryShare: number) =>
    planBurst({
      rate: 300,
      durationMs: 10_000,
      retryShare,
      tokens: ['t0', 't1', 't2'],
      quizIds: ['q0', 'q1'],
      questions: 10,
      seed: 7,
    });

  it('plans rate × duration attempts, each with its own key and an answer per question', () => {
    const p = plan(0.1);
    expect(p).toHaveLength(3000);
    expect(new Set(p.map((s) => s.key)).size).toBe(3000);
    expect(p.every((s) => s.answers.length === 10 && s.answers.every((x) => x >= 0 && x <= 3))).toBe(true);
  });

  it('retries the given share, half at once and half after the first answer', () => {
    const p = plan(0.1);
    expect(p.filter((s) => s.retry === 'concurrent')).toHaveLength(150);
    expect(p.filter((s) => s.retry === 'after')).toHaveLength(150);
    expect(plan(0).every((s) => s.retry === 'none')).toBe(true);
  });

  it('spreads people over quizzes so one person and quiz recur only after people × quizzes submissions', () => {
    const p = plan(0);
    const pairs = p.slice(0, 6).map((s) => `${s.token}/${s.quizId}`);
    expect(new Set(pairs).size).toBe(6);
    expect(`${p[6].token}/${p[6].quizId}`).toBe(pairs[0]);
  });

  it('chooses the same answers for the same seed', () => {
    expect(plan(0).map((s) => s.answers)).toEqual(plan(0).map((s) => s.answers));
  });
});

describe('the verdicts', () => {
  it('calls a burst clean only when every count and the p99 hold', () => {
    expect(clean(burst(300, 120), 500)).toBe(true);
    expect(clean(burst(300, 501), 500)).toBe(false);
    expect(clean(burst(300, 120, { non2xx: { '503': 1 } }), 500)).toBe(false);
    expect(clean(burst(300, 120, { failed: 1 }), 500)).toBe(false);
    expect(clean(burst(300, 120, { duplicates: 1 }), 500)).toBe(false);
    expect(clean(burst(300, 120, { lost: 1 }), 500)).toBe(false);
    expect(clean(burst(300, 120, { stored: 2999 }), 500)).toBe(false);
    expect(clean(burst(300, 120, { retryMismatches: 1 }), 500)).toBe(false);
  });

  it('takes the highest clean rate of a round, 0 when none', () => {
    expect(highestClean([burst(300, 100), burst(450, 200), burst(600, 900)], 500)).toBe(450);
    expect(highestClean([burst(300, 900)], 500)).toBe(0);
  });
});

describe('renderAssessmentReport', () => {
  const run: AssessmentRun = {
    date: '2026-11-26T21:00:00.000Z',
    machine: {
      cpuModel: 'Test CPU',
      cores: 2,
      memoryGiB: 24,
      node: 'v20.20.2',
      os: 'Linux x64',
      kernel: '6.1',
    },
    pinning: 'servers on CPU 1',
    settings: {
      rate: 300,
      durationS: 10,
      retryShare: 0.1,
      students: 300,
      quizzes: 10,
      questions: 10,
      connections: 128,
      p99TargetMs: 500,
      ladder: [450, 600],
    },
    rounds: [
      { round: 1, replicas: 2, burst: burst(300, 80), ladder: [burst(450, 150), burst(600, 700)] },
      { round: 1, replicas: 1, burst: burst(300, 90), ladder: [burst(450, 800)] },
    ],
  };

  it('shows the machine, each burst against the targets, and the scaling factor from the highest clean rates', () => {
    const md = renderAssessmentReport(run);
    expect(md).toContain('Test CPU, 2 CPUs, 24 GiB');
    expect(md).toContain('| 2 (round 1) | 20 | 80 | 120 | 3300 | 0 | 3000 / 3000 | 0 | 0 | 0 | met |');
    expect(md).toMatch(/\| 1 \| 300: 90, 450: 800✗ \| 300 \|/);
    expect(md).toMatch(/\| 2 \| 300: 80, 450: 150, 600: 700✗ \| 450 \|/);
    expect(md).toContain('Scaling factor 2 ÷ 1 replica(s): **1.5**');
  });
});
