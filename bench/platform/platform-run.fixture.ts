import { throughputResult } from '../lib/run.fixture';
import type { PlatformRun, Setup } from './platform-results';

/** One set-up in one 10 s round: req/s, and the CPU seconds each process spent. */
type Cell = [reqPerSec: number, cpuSeconds: Record<string, number>];

/** Two rounds of every probe, in the order they ran (rotated in the second), with figures whose verdicts are known. */
const ROUNDS: Array<Record<string, Partial<Record<Setup, Cell>>>> = [
  {
    page: {
      bare: [10000, { bare: 4 }],
      direct: [6000, { launcher: 7, database: 0.1 }],
      gateway: [5760, { launcher: 8 }],
      'cluster-gateway': [3000, { 'cluster-gateway': 6, launcher: 3 }],
      'minimal-proxy': [3200, { 'minimal-proxy': 4, launcher: 3.2 }],
    },
    healthz: { bare: [20000, { bare: 6 }], direct: [8000, { launcher: 7 }] },
    me: {
      direct: [2000, { launcher: 8, database: 0.4 }],
      gateway: [1700, { launcher: 8.5, database: 0.34 }],
    },
  },
  {
    page: {
      bare: [11000, { bare: 4.4 }],
      direct: [6600, { launcher: 7.7, database: 0.1 }],
      gateway: [5940, { launcher: 8.3 }],
      'cluster-gateway': [3300, { 'cluster-gateway': 6.6, launcher: 3.3 }],
      'minimal-proxy': [3000, { 'minimal-proxy': 3.75, launcher: 3 }],
    },
    healthz: { bare: [20000, { bare: 6 }], direct: [8000, { launcher: 7 }] },
    me: {
      direct: [2000, { launcher: 8, database: 0.4 }],
      gateway: [1700, { launcher: 8.5, database: 0.34 }],
    },
  },
];

/**
 * A small platform run as platform.json holds it, on a quiet two-core test machine with the servers pinned:
 * - page: standalone gateway ÷ direct 0.96 and 0.90 (median 0.93, met); cluster gateway ÷ minimal proxy 0.94 and
 *   1.10 (median 1.02, met); direct ÷ bare 0.60 (met);
 * - healthz: identity ÷ bare 0.40 (missed by 0.20);
 * - me: 400 µs of the launcher's CPU per request direct (missed by 100 µs); gateway ÷ direct 0.85 (missed by 0.05).
 */
export function platformFixture(): PlatformRun {
  const throughput: PlatformRun['throughput'] = [];
  ROUNDS.forEach((probes, i) => {
    for (const [probe, cells] of Object.entries(probes)) {
      for (const [setup, [reqPerSec, groups]] of Object.entries(cells) as Array<[Setup, Cell]>) {
        const ours = Object.values(groups).reduce((a, b) => a + b, 0);
        throughput.push({
          round: i + 1,
          probe,
          contender: setup,
          result: throughputResult({ reqPerSec, p50: 5, p99: 20 }),
          cpu: { wallSeconds: 10, groups, loadGenerator: 1, others: 0.1, machineBusy: ours + 1.1 },
        });
      }
    }
  });
  return {
    benchmark: 'platform',
    formatVersion: 1,
    command: 'npm run bench:platform -w bench',
    startedAt: '2026-01-01T10:00:00.000Z',
    finishedAt: '2026-01-01T10:06:00.000Z',
    machine: {
      cpuModel: 'Test CPU',
      cores: 2,
      memoryGiB: 8,
      node: 'v20.20.0',
      os: 'Linux x64',
      kernel: '6.1',
    },
    loadAverage: { start: [0.2, 0.3, 0.4], end: [1.1, 0.8, 0.5] },
    pinning: { pinned: true, serverCpus: '1', loadCpus: '0' },
    settings: {
      rounds: 2,
      durationSeconds: 10,
      warmupSeconds: 5,
      connections: 50,
      rates: [],
      rateDurationSeconds: 10,
      rateConnections: 50,
      throughputTool: 'wrk (wrk 4.1.0, 1 thread)',
      rateTool: 'none (no fixed-rate phase)',
      logLevel: 'info',
      probes: ['page', 'healthz', 'me'],
    },
    topology:
      'the standalone launcher, and beside it the bare server, a cluster gateway and the minimal proxy',
    clusterGateway: '`TARGET=gateway` with `UPSTREAM_CONTENT`.',
    probes: [
      {
        id: 'page',
        path: '/api/posts/public?limit=20',
        service: 'content',
        title: 'public page',
        description: 'the first page.',
        withCookie: false,
        headline: true,
        setups: ['bare', 'direct', 'gateway', 'cluster-gateway', 'minimal-proxy'],
        bodyBytes: 6543,
      },
      {
        id: 'healthz',
        path: '/healthz',
        service: 'identity',
        title: 'liveness',
        description: 'the floor.',
        withCookie: false,
        headline: false,
        setups: ['bare', 'direct'],
        bodyBytes: 15,
      },
      {
        id: 'me',
        path: '/api/auth/me',
        service: 'identity',
        title: 'who am I',
        description: 'the session check.',
        withCookie: true,
        headline: false,
        setups: ['direct', 'gateway'],
        bodyBytes: 224,
      },
    ],
    throughput,
    fixedRate: [],
  };
}
