import { assessNoise, judge, keptUp, paired, serverSeconds, summariseProbe, type Target } from './results';
import { cpu, measuredFixture, type RoundFigures } from './run.fixture';

const spec = {
  probe: 'p',
  rate: 500,
  command: 'npm run bench:x -w bench',
  minutes: 10,
  topology: 'one Node process',
};
const run = (throughput: RoundFigures, rate: RoundFigures = []) => measuredFixture(spec, throughput, rate);

const round = (bare: number, direct: number, gateway: number) => ({
  bare: { reqPerSec: bare, serverCpu: 1 },
  direct: { reqPerSec: direct, serverCpu: 8, databaseCpu: 0.5 },
  gateway: { reqPerSec: gateway, serverCpu: 9, databaseCpu: 0.5 },
});
const rate = (
  directP99: number,
  gatewayP99: number,
  achieved: { direct?: number; gateway?: number } = {},
) => ({
  bare: { reqPerSec: 0, p50: 0.5, p99: 1 },
  direct: { reqPerSec: 0, p50: 1, p99: directP99, achievedRate: achieved.direct, serverCpu: 4 },
  gateway: { reqPerSec: 0, p50: 1.5, p99: gatewayP99, achievedRate: achieved.gateway },
});

describe('results shared by the benchmarks', () => {
  it('takes ratios round by round, then the median', () => {
    // Round 2 is slow for everybody (drift): the per-round ratios do not care.
    const s = summariseProbe(
      run([round(10000, 6000, 4000), round(5000, 3000, 2000), round(10000, 6000, 4500)]),
      'p',
    );
    expect(s.ratios.gatewayOverBare?.values).toEqual([0.4, 0.4, 0.45]);
    expect(s.ratios.gatewayOverBare?.median).toBe(0.4);
    expect(s.ratios.directOverBare?.median).toBe(0.6);
    expect(s.ratios.gatewayOverDirect?.values.map((v) => v.toFixed(3))).toEqual(['0.667', '0.667', '0.750']);
    expect(s.throughput.direct?.reqPerSec.median).toBe(6000);
    expect(s.throughput.direct?.reqPerSec.min).toBe(3000);
    expect(s.throughput.direct?.reqPerSec.max).toBe(6000);
  });

  it('derives CPU per request for the answering process and PostgreSQL, and what the gateway adds', () => {
    // 8 s of CPU for 60,000 requests is 133 µs each; the gateway's 9 s for 40,000 is 225 µs.
    const s = summariseProbe(run([round(10000, 6000, 4000)]), 'p');
    expect(s.throughput.bare?.serverCpuUsPerRequest.median).toBe(10);
    expect(s.throughput.bare?.databaseCpuUsPerRequest.median).toBe(0);
    expect(s.throughput.direct?.serverCpuUsPerRequest.median).toBeCloseTo(133.33, 2);
    expect(s.throughput.direct?.databaseCpuUsPerRequest.median).toBeCloseTo(8.33, 2);
    expect(s.gatewayCpuUsPerRequest?.median).toBeCloseTo(225 - 133.33, 2);
  });

  it('leaves out ratios and differences of contenders that did not run in the same round', () => {
    const onlyBare = run([round(10000, 6000, 4000)]);
    onlyBare.throughput = onlyBare.throughput.filter((r) => r.contender === 'bare');
    const s = summariseProbe(onlyBare, 'p');
    expect(Object.keys(s.throughput)).toEqual(['bare']);
    expect(s.ratios).toEqual({
      gatewayOverBare: undefined,
      directOverBare: undefined,
      gatewayOverDirect: undefined,
    });
    expect(s.gatewayCpuUsPerRequest).toBeUndefined();
    expect(s.rates).toEqual([]);
  });

  it('pairs the fixed-rate rounds for the added latency, and gives CPU per answered request', () => {
    const s = summariseProbe(run([], [rate(4, 6), rate(5, 12), rate(3, 5)]), 'p');
    expect(s.rates).toHaveLength(1);
    expect(s.rates[0].rate).toBe(500);
    expect(s.rates[0].addedP99Ms?.values).toEqual([2, 7, 2]);
    expect(s.rates[0].addedP99Ms?.median).toBe(2);
    expect(s.rates[0].addedP50Ms?.median).toBe(0.5);
    // 4 s of CPU for 5,000 answers is 800 µs each.
    expect(s.rates[0].byContender.direct?.serverCpuUsPerRequest.median).toBe(800);
    expect(s.rates[0].byContender.gateway?.p99Ms.max).toBe(12);
  });

  it('counts CPU of the bare server for the bare contender and of the launcher for the others', () => {
    expect(serverSeconds({ contender: 'bare', cpu: cpu('bare', { serverCpu: 3 }) })).toBe(3);
    expect(serverSeconds({ contender: 'gateway', cpu: cpu('gateway', { serverCpu: 7 }) })).toBe(7);
  });

  it('says whether a contender kept up with a rate', () => {
    const levels = summariseProbe(run([], [rate(4, 6, { direct: 480, gateway: 300 })]), 'p').rates[0]
      .byContender;
    expect(keptUp(levels.direct, 500)).toBe(true);
    expect(keptUp(levels.gateway, 500)).toBe(false);
    expect(keptUp(undefined, 500)).toBe(false);
    const unanswered = summariseProbe(
      run([], [{ ...rate(4, 6), direct: { reqPerSec: 0, unanswered: 3 } }]),
      'p',
    ).rates[0];
    expect(keptUp(unanswered.byContender.direct, 500)).toBe(false);
  });

  it('judges a target with its margin, or says why it was not', () => {
    const ratio: Target = {
      id: 'r',
      probe: 'p',
      what: 'ratio',
      source: 's',
      unit: '×',
      comparator: '>=',
      budget: 0.5,
    };
    const ceiling: Target = { ...ratio, id: 'c', unit: 'ms', comparator: '<=', budget: 5 };
    expect(judge(ratio, 0.6).verdict).toBe('met');
    expect(judge(ratio, 0.6).margin).toBeCloseTo(0.1, 10);
    expect(judge(ratio, 0.5)).toMatchObject({ verdict: 'met', margin: 0 });
    expect(judge(ceiling, 8)).toMatchObject({ verdict: 'missed', measured: 8, margin: -3 });
    expect(judge(ceiling, 8).note).toBeUndefined();
    expect(judge(ceiling, 8, { note: 'queued' })).toMatchObject({ verdict: 'missed', note: 'queued' });
    expect(judge(ceiling, undefined)).toMatchObject({
      verdict: 'not measured',
      note: 'not part of this run',
    });
    expect(judge(ceiling, 8, { unjudgeable: 'the rate is beyond this machine' })).toMatchObject({
      verdict: 'not measured',
      note: 'the rate is beyond this machine',
    });
  });

  it('calls a run noisy when others took CPU or the load was high at the start', () => {
    expect(assessNoise(run([round(1000, 900, 600)]))).toMatchObject({ noisy: false, reasons: [] });
    const busy = { ...run([round(1000, 900, 600)]), loadAverage: { start: [3.5, 3, 2], end: [4, 3, 2] } };
    busy.throughput = busy.throughput.map((r) => ({ ...r, cpu: cpu(r.contender, { others: 8 }) }));
    const noise = assessNoise(busy);
    expect(noise.noisy).toBe(true);
    expect(noise.othersCores.median).toBeCloseTo(0.8, 10);
    expect(noise.reasons).toEqual([
      'other programs used a median 0.80 of the 2 cores during the measurements (max 0.80)',
      'the 1-minute load average was 3.5 when the run started, on 2 cores',
    ]);
  });

  it('leaves a round out of a ratio when its value is not finite (a contender that answered nothing)', () => {
    const rows = [
      { round: 1, probe: 'p', contender: 'gateway', rps: 900 },
      { round: 1, probe: 'p', contender: 'direct', rps: 1000 },
      { round: 2, probe: 'p', contender: 'gateway', rps: 800 },
      { round: 2, probe: 'p', contender: 'direct', rps: 0 },
      { round: 3, probe: 'p', contender: 'gateway', rps: 0 },
      { round: 3, probe: 'p', contender: 'direct', rps: 1000 },
    ];
    expect(paired(rows, 'p', 'gateway', 'direct', (g, d) => g.rps / d.rps)).toEqual([0.9, 0]);
  });
});
