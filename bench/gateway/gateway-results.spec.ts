import { summariseProbe } from '../lib/results';
import { checkTargets } from './gateway-results';
import { fixtureRun } from './gateway-run.fixture';

const round = (bare: number, direct: number, gateway: number) => ({
  bare: { reqPerSec: bare, serverCpu: 1 },
  direct: { reqPerSec: direct, serverCpu: 8 },
  gateway: { reqPerSec: gateway, serverCpu: 9 },
});
const rate = (directP99: number, gatewayP99: number, directAchieved = 500) => ({
  bare: { reqPerSec: 0, p50: 0.5, p99: 1 },
  direct: { reqPerSec: 0, p50: 1, p99: directP99, achievedRate: directAchieved },
  gateway: { reqPerSec: 0, p50: 1.5, p99: gatewayP99 },
});

describe('gateway results', () => {
  it('says which targets are met and by how much the others are missed', () => {
    const run = fixtureRun(
      [round(10000, 1000, 400), round(10000, 1000, 450), round(10000, 1000, 420)],
      [rate(4, 12), rate(4, 11), rate(4, 13)],
    );
    const checks = checkTargets(run, [summariseProbe(run, 'me')]);
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId['gateway-throughput']).toMatchObject({ verdict: 'missed', measured: 0.42, budget: 0.5 });
    expect(byId['gateway-throughput'].margin).toBeCloseTo(-0.08, 10);
    expect(byId['gateway-added-p99']).toMatchObject({ verdict: 'missed', measured: 8, margin: -3 });
    expect(byId['service-over-bare']).toMatchObject({ verdict: 'missed', measured: 0.1 });

    const good = fixtureRun([round(1000, 900, 600)], [rate(4, 6)]);
    const goodChecks = checkTargets(good, [summariseProbe(good, 'me')]);
    expect(goodChecks.map((c) => c.verdict)).toEqual(['met', 'met', 'met']);
    expect(goodChecks[0].margin).toBeCloseTo(0.6 / 0.9 - 0.5, 10);
    expect(goodChecks[1].margin).toBe(3);
  });

  it('does not judge the added latency when identity alone could not keep up with the rate', () => {
    const run = fixtureRun([round(1000, 900, 600)], [rate(400, 600, 300)]);
    const added = checkTargets(run, [summariseProbe(run, 'me')]).find((c) => c.id === 'gateway-added-p99');
    expect(added?.verdict).toBe('not measured');
    expect(added?.note).toBe(
      'identity alone answered only 300 of the 500 req/s asked on this machine, so latencies there are queueing, not the gateway',
    );
  });

  it('points to the figure at a lower rate that identity sustains', () => {
    const run = fixtureRun([round(1000, 900, 600)], [rate(400, 600, 300)]);
    const lower = fixtureRun([], [rate(3, 4.5)]).fixedRate.map((r) => ({ ...r, rate: 100 }));
    run.fixedRate.push(...lower);
    run.settings.rates = [500, 100];
    const summary = summariseProbe(run, 'me');
    expect(summary.rates.map((l) => l.rate)).toEqual([500, 100]);
    const added = checkTargets(run, [summary]).find((c) => c.id === 'gateway-added-p99');
    expect(added?.verdict).toBe('not measured');
    expect(added?.note).toContain(
      '; at 100 req/s, which it sustains, gateway p99 minus direct p99 is 1.50 ms',
    );
  });

  it('says so when the gateway path, not identity, fell behind the rate', () => {
    const behind = { ...rate(4, 900), gateway: { reqPerSec: 0, p50: 400, p99: 900, achievedRate: 420 } };
    const run = fixtureRun([round(1000, 900, 600)], [behind]);
    const added = checkTargets(run, [summariseProbe(run, 'me')]).find((c) => c.id === 'gateway-added-p99');
    expect(added).toMatchObject({ verdict: 'missed', measured: 896 });
    expect(added?.note).toBe(
      'through the gateway only 420 of the 500 req/s were answered: requests queued in the launcher process, where gateway and identity share one event loop',
    );
  });

  it('skips the gateway targets for a probe the gateway does not serve', () => {
    const run = fixtureRun([round(1000, 900, 600)], []);
    run.probes[0].contenders = ['bare', 'direct'];
    const checks = checkTargets(run, [summariseProbe(run, 'me')]);
    expect(checks.map((c) => c.id)).toEqual(['service-over-bare']);
  });
});
