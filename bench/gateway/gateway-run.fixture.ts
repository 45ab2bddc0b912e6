import type { CpuUsage } from '../lib/cpu-meter';
import type { RateResult, ThroughputResult } from '../lib/load-client';
import { CONTENDERS, type Contender, type GatewayRun, type RateRound, type ThroughputRound } from './gateway-results';

/** Figures of one contender in one round, for building runs whose verdicts are known in advance. */
export interface Figures {
  reqPerSec: number;
  p50?: number;
  p99?: number;
  /** CPU seconds of the answering process over the 10 s round. */
  serverCpu?: number;
  achievedRate?: number;
  unanswered?: number;
}

export function cpu(contender: Contender, serverSeconds: number, others = 0.1): CpuUsage {
  return {
    wallSeconds: 10,
    groups: { launcher: contender === 'bare' ? 0 : serverSeconds, database: contender === 'bare' ? 0 : 1, bare: contender === 'bare' ? serverSeconds : 0 },
    loadGenerator: 1,
    others,
    machineBusy: serverSeconds + 2 + others,
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

export function rateResult(f: Figures): RateResult {
  const latency = { mean: f.p50 ?? 1, p50: f.p50 ?? 1, p90: f.p99 ?? 2, p99: f.p99 ?? 2, p999: f.p99 ?? 2, max: f.p99 ?? 2 };
  return {
    targetRate: 500,
    durationSeconds: 10,
    scheduled: 5000,
    completed: (f.achievedRate ?? 500) * 10,
    achievedRate: f.achievedRate ?? 500,
    non2xx: 0,
    errors: 0,
    unanswered: f.unanswered ?? 0,
    latencyMs: latency,
    serviceTimeMs: latency,
  };
}

/** A run of one probe (`me`) with the given per-round figures of each contender. */
export function fixtureRun(
  throughput: Array<Record<Contender, Figures>>,
  rate: Array<Record<Contender, Figures>>,
  overrides: Partial<GatewayRun> = {},
): GatewayRun {
  const throughputRounds: ThroughputRound[] = throughput.flatMap((byContender, i) =>
    CONTENDERS.map((contender) => ({
      round: i + 1,
      probe: 'me',
      contender,
      result: throughputResult(byContender[contender]),
      cpu: cpu(contender, byContender[contender].serverCpu ?? 5),
    })),
  );
  const rateRounds: RateRound[] = rate.flatMap((byContender, i) =>
    CONTENDERS.map((contender) => ({
      round: i + 1,
      probe: 'me',
      rate: 500,
      contender,
      result: rateResult(byContender[contender]),
      cpu: cpu(contender, 2),
    })),
  );
  return {
    benchmark: 'gateway',
    formatVersion: 1,
    command: 'npm run bench:gateway -w bench',
    startedAt: '2026-01-01T10:00:00.000Z',
    finishedAt: '2026-01-01T10:10:00.000Z',
    machine: { cpuModel: 'Test CPU', cores: 2, memoryGiB: 8, node: 'v20.20.0', os: 'Linux x64', kernel: '6.1' },
    loadAverage: { start: [0.2, 0.3, 0.4], end: [2.1, 1, 0.5] },
    settings: {
      rounds: throughput.length,
      durationSeconds: 10,
      warmupSeconds: 5,
      connections: 50,
      rates: [500],
      rateDurationSeconds: 10,
      rateConnections: 50,
      throughputTool: 'wrk',
      rateTool: 'undici',
      logLevel: 'info',
      probes: ['me'],
    },
    topology: 'gateway and identity in one Node process',
    probes: [
      {
        id: 'me',
        path: '/api/auth/me',
        title: 'who am I',
        description: 'the session check',
        bodyBytes: 224,
        headline: true,
        contenders: [...CONTENDERS],
        withCookie: true,
        fixedRate: true,
      },
    ],
    throughput: throughputRounds,
    fixedRate: rateRounds,
    ...overrides,
  };
}
