import type { CpuSample, CpuUsage } from './cpu-meter';
import type { Probe, RateResult, ThroughputResult } from './load-client';
import { measureRounds, type LoadGenerator, type Meter, type PlannedProbe } from './rounds';
import { rateResult, throughputResult } from './run.fixture';

const plan = {
  rounds: 2,
  durationSeconds: 10,
  warmupSeconds: 5,
  connections: 50,
  rates: [500, 100],
  rateDurationSeconds: 8,
  rateConnections: 20,
};
const probes: PlannedProbe[] = [
  { id: 'a', contenders: ['bare', 'direct', 'gateway'], fixedRate: true },
  { id: 'b', contenders: ['bare', 'direct'], fixedRate: false },
];

/** Load that answers at once and notes what it was asked, in order. */
function fakeLoad(non2xx = 0): { load: LoadGenerator; calls: string[] } {
  const calls: string[] = [];
  const load: LoadGenerator = {
    closedLoop: (probe: Probe, seconds: number): Promise<ThroughputResult> => {
      calls.push(`closed ${probe.origin}${probe.path} ${seconds}s`);
      return Promise.resolve({ ...throughputResult({ reqPerSec: 1000 }), non2xx });
    },
    atRate: (probe: Probe, options): Promise<RateResult> => {
      calls.push(
        `rate ${probe.origin}${probe.path} ${options.rate}/s ${options.durationMs}ms ${options.connections}c`,
      );
      return Promise.resolve(rateResult({ reqPerSec: 0 }, options.rate));
    },
  };
  return { load, calls };
}

/** A meter whose every measurement took 2 s of the launcher's CPU, numbered so that rounds can be told apart. */
function fakeMeter(): Meter {
  let samples = 0;
  return {
    sample: (): CpuSample => ({
      at: (samples += 1),
      machine: { busy: 0, total: 0 },
      groups: [],
      loadGenerator: 0,
    }),
    since: (start: CpuSample): CpuUsage => ({
      wallSeconds: start.at,
      groups: { launcher: 2 },
      loadGenerator: 0,
      others: 0,
      machineBusy: 2,
    }),
  };
}

const request = (probe: string, contender: string): Probe => ({
  origin: contender,
  path: `/${probe}`,
  headers: {},
});

describe('alternated rounds', () => {
  it('warms every contender up, then rotates the order of the contenders from round to round', async () => {
    const { load, calls } = fakeLoad();
    const messages: string[] = [];
    const result = await measureRounds({
      plan,
      probes,
      request,
      load,
      meter: fakeMeter(),
      progress: (m) => messages.push(m),
      pauseMs: 0,
    });
    expect(calls.slice(0, 5)).toEqual([
      'closed bare/a 5s',
      'closed direct/a 5s',
      'closed gateway/a 5s',
      'closed bare/b 5s',
      'closed direct/b 5s',
    ]);
    expect(result.throughput.map((r) => `${r.round} ${r.probe} ${r.contender}`)).toEqual([
      '1 a bare',
      '1 a direct',
      '1 a gateway',
      '1 b bare',
      '1 b direct',
      '2 a direct',
      '2 a gateway',
      '2 a bare',
      '2 b direct',
      '2 b bare',
    ]);
    expect(calls[5]).toBe('closed bare/a 10s');
    expect(result.throughput[0].cpu.groups.launcher).toBe(2);
    expect(messages[0]).toBe('warm-up a bare 5 s');
    expect(messages).toContain(
      'max round 1 a bare: 1000 req/s, p50 1 ms, p99 2 ms, non-2xx 0, errors 0, others 0.00 cores',
    );
  });

  it("runs every fixed rate on the probes marked for it, with the plan's duration and connections", async () => {
    const { load, calls } = fakeLoad();
    const result = await measureRounds({
      plan,
      probes,
      request,
      load,
      meter: fakeMeter(),
      progress: () => undefined,
      pauseMs: 0,
    });
    expect(result.fixedRate.map((r) => `${r.round} ${r.probe} ${r.rate} ${r.contender}`)).toEqual([
      '1 a 500 bare',
      '1 a 500 direct',
      '1 a 500 gateway',
      '1 a 100 bare',
      '1 a 100 direct',
      '1 a 100 gateway',
      '2 a 500 direct',
      '2 a 500 gateway',
      '2 a 500 bare',
      '2 a 100 direct',
      '2 a 100 gateway',
      '2 a 100 bare',
    ]);
    expect(calls.filter((c) => c.startsWith('rate'))[0]).toBe('rate bare/a 500/s 8000ms 20c');
  });

  it('stops at the first non-2xx answer: the figures would be meaningless', async () => {
    const { load } = fakeLoad(3);
    await expect(
      measureRounds({
        plan,
        probes,
        request,
        load,
        meter: fakeMeter(),
        progress: () => undefined,
        pauseMs: 0,
      }),
    ).rejects.toThrow('bare answered 3 non-2xx responses to a: the figures would be meaningless');
  });
});
