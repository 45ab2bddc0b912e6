import type { CpuUsage } from './cpu-meter';
import type { RateResult, ThroughputResult } from './load-client';
import {
  CONTENDERS,
  type Contender,
  type MeasuredRun,
  type RateRound,
  type ThroughputRound,
} from './results';

/** Figures of one contender in one round, for building runs whose verdicts are known in advance. */
export interface Figures {
  reqPerSec: number;
  p50?: number;
  p99?: number;
  /** CPU seconds of the answering process over the 10 s round. */
  serverCpu?: number;
  /** CPU seconds of PostgreSQL over the 10 s round. */
  databaseCpu?: number;
  achievedRate?: number;
  unanswered?: number;
  /** CPU seconds other programs took over the 10 s round. */
  others?: number;
}

/** Per-round figures of each contender: one entry a round. */
export type RoundFigures = Array<Record<Contender, Figures>>;

export function cpu(contender: Contender, f: Omit<Figures, 'reqPerSec'> = {}): CpuUsage {
  const server = f.serverCpu ?? 5;
  const database = contender === 'bare' ? 0 : (f.databaseCpu ?? 1);
  const others = f.others ?? 0.1;
  return {
    wallSeconds: 10,
    groups: {
      launcher: contender === 'bare' ? 0 : server,
      database,
      bare: contender === 'bare' ? server : 0,
    },
    loadGenerator: 1,
    others,
    machineBusy: server + database + 1 + others,
  };
}

export function throughputResult(f: Figures): ThroughputResult {
  return {
    tool: 'wrk',
    durationSeconds: 10,
    requests: f.reqPerSec * 10,
    reqPerSec: f.reqPerSec,
    latencyMs: { mean: f.p50 ?? 1, p50: f.p50 ?? 1, p90: f.p99 ?? 2, p99: f.p99 ?? 2, max: (f.p99 ?? 2) * 2 },
    non2xx: 0,
    errors: 0,
  };
}

export function rateResult(f: Figures, rate: number): RateResult {
  const latency = {
    mean: f.p50 ?? 1,
    p50: f.p50 ?? 1,
    p90: f.p99 ?? 2,
    p99: f.p99 ?? 2,
    p999: f.p99 ?? 2,
    max: f.p99 ?? 2,
  };
  const achieved = f.achievedRate ?? rate;
  return {
    targetRate: rate,
    durationSeconds: 10,
    scheduled: rate * 10,
    completed: achieved * 10,
    achievedRate: achieved,
    non2xx: 0,
    errors: 0,
    unanswered: f.unanswered ?? 0,
    latencyMs: latency,
    serviceTimeMs: latency,
  };
}

export interface FixtureSpec {
  /** The one probe measured. */
  probe: string;
  /** The one fixed rate, in req/s. */
  rate: number;
  command: string;
  minutes: number;
  topology: string;
}

/**
 * A run of one probe at one fixed rate with the given per-round figures of each contender, on a quiet
 * two-core test machine; the benchmark's fixture adds its probes and own fields.
 */
export function measuredFixture(
  spec: FixtureSpec,
  throughput: RoundFigures,
  rate: RoundFigures,
): Omit<MeasuredRun, 'probes'> {
  const throughputRounds: ThroughputRound[] = throughput.flatMap((byContender, i) =>
    CONTENDERS.map((contender) => ({
      round: i + 1,
      probe: spec.probe,
      contender,
      result: throughputResult(byContender[contender]),
      cpu: cpu(contender, byContender[contender]),
    })),
  );
  const rateRounds: RateRound[] = rate.flatMap((byContender, i) =>
    CONTENDERS.map((contender) => ({
      round: i + 1,
      probe: spec.probe,
      rate: spec.rate,
      contender,
      result: rateResult(byContender[contender], spec.rate),
      cpu: cpu(contender, { serverCpu: 2, ...byContender[contender] }),
    })),
  );
  return {
    command: spec.command,
    startedAt: '2026-01-01T10:00:00.000Z',
    finishedAt: new Date(Date.parse('2026-01-01T10:00:00.000Z') + spec.minutes * 60_000).toISOString(),
    machine: {
      cpuModel: 'Test CPU',
      cores: 2,
      memoryGiB: 8,
      node: 'v20.20.0',
      os: 'Linux x64',
      kernel: '6.1',
    },
    loadAverage: { start: [0.2, 0.3, 0.4], end: [2.1, 1, 0.5] },
    settings: {
      rounds: Math.max(throughput.length, rate.length),
      durationSeconds: 10,
      warmupSeconds: 5,
      connections: 50,
      rates: [spec.rate],
      rateDurationSeconds: 10,
      rateConnections: 50,
      throughputTool: 'wrk',
      rateTool: 'undici',
      logLevel: 'info',
      probes: [spec.probe],
    },
    topology: spec.topology,
    throughput: throughputRounds,
    fixedRate: rateRounds,
  };
}

/** A round at full load: the contenders answer the given req/s, with the latencies and CPU seconds of a typical run. */
export function loadedRound(bare: number, direct: number, gateway: number): Record<Contender, Figures> {
  return {
    bare: { reqPerSec: bare, p50: 1, p99: 3, serverCpu: 1 },
    direct: { reqPerSec: direct, p50: 5, p99: 20, serverCpu: 8 },
    gateway: { reqPerSec: gateway, p50: 8, p99: 30, serverCpu: 9 },
  };
}

/** A fixed-rate round that every contender kept up with: the bare server fastest, the gateway slowest. */
export const keptUpRate: Record<Contender, Figures> = {
  bare: { reqPerSec: 0, p50: 0.4, p99: 1 },
  direct: { reqPerSec: 0, p50: 1.2, p99: 4 },
  gateway: { reqPerSec: 0, p50: 1.9, p99: 7.5 },
};
