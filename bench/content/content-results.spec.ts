import { summariseProbe } from '../lib/results';
import { checkTargets, compareRuns } from './content-results';
import { fixtureRun } from './content-run.fixture';

const round = (bare: number, direct: number, gateway: number) => ({
  bare: { reqPerSec: bare, serverCpu: 1 },
  direct: { reqPerSec: direct, serverCpu: 8, databaseCpu: 0.5 },
  gateway: { reqPerSec: gateway, serverCpu: 9, databaseCpu: 0.5 },
});
const rate = (gatewayP99: number, gatewayAchieved = 1000) => ({
  bare: { reqPerSec: 0, p50: 0.5, p99: 2 },
  direct: { reqPerSec: 0, p50: 1, p99: 10 },
  gateway: { reqPerSec: 0, p50: 2, p99: gatewayP99, achievedRate: gatewayAchieved },
});

describe('content results', () => {
  it("judges the issue's two targets and §9's budgets, with margins", () => {
    const run = fixtureRun(
      [round(10000, 6000, 3000), round(10000, 6000, 3500), round(10000, 6000, 3200)],
      [rate(40), rate(60), rate(45)],
    );
    const byId = Object.fromEntries(checkTargets(run, [summariseProbe(run, 'page')]).map((c) => [c.id, c]));
    expect(byId['gateway-over-bare']).toMatchObject({ verdict: 'missed', measured: 0.32, budget: 0.4 });
    expect(byId['gateway-over-bare'].margin).toBeCloseTo(-0.08, 10);
    expect(byId['gateway-p99-at-rate']).toMatchObject({ verdict: 'met', measured: 45, margin: 5 });
    expect(byId['gateway-p99-at-rate'].note).toBeUndefined();
    expect(byId['direct-over-bare']).toMatchObject({ verdict: 'met', measured: 0.6, margin: 0 });
    expect(byId['gateway-over-direct']).toMatchObject({ verdict: 'met' });
  });

  it('says why the p99 is what it is when the gateway path fell behind the rate', () => {
    const run = fixtureRun([round(10000, 600, 400)], [rate(5000, 420)]);
    const p99 = checkTargets(run, [summariseProbe(run, 'page')]).find((c) => c.id === 'gateway-p99-at-rate');
    expect(p99).toMatchObject({ verdict: 'missed', measured: 5000, margin: -4950 });
    expect(p99?.note).toBe(
      'through the gateway only 420 of the 1000 req/s were answered (content direct: 1000): requests queued, and the p99 is the queue',
    );
  });

  it('reports a target it could not measure as such', () => {
    const run = fixtureRun([round(10000, 6000, 4000)], []);
    const p99 = checkTargets(run, [summariseProbe(run, 'page')]).find((c) => c.id === 'gateway-p99-at-rate');
    expect(p99).toMatchObject({ verdict: 'not measured', note: 'not part of this run' });
    expect(p99?.measured).toBeUndefined();
  });

  it('compares two runs probe by probe and contender by contender', () => {
    const before = fixtureRun([round(10000, 200, 150)], [rate(9000, 180)], {
      code: { commit: 'aaaa', dirty: false, label: 'before' },
    });
    const after = fixtureRun([round(10000, 5000, 2000)], [rate(20)]);
    const cmp = compareRuns(before, after);
    expect(cmp.before.code.label).toBe('before');
    const direct = cmp.throughput.find((c) => c.contender === 'direct');
    expect(direct?.reqPerSec).toEqual({ before: 200, after: 5000, factor: 25 });
    // Same CPU seconds for 25 times the requests: a 25th of the CPU per request.
    expect(direct?.serverCpuUsPerRequest.factor).toBeCloseTo(1 / 25, 10);
    const gatewayRate = cmp.rates.find((r) => r.contender === 'gateway');
    expect(gatewayRate).toMatchObject({
      rate: 1000,
      achievedRate: { before: 180, after: 1000 },
      p99Ms: { before: 9000, after: 20 },
    });

    // A probe that changed its request between the runs is not compared.
    const moved = {
      ...before,
      probes: before.probes.map((p) => ({ ...p, path: '/api/posts/public?limit=10' })),
    };
    expect(compareRuns(moved, after).throughput).toEqual([]);
  });
});
