import { CONTENDERS } from '../lib/results';
import { measuredFixture, type RoundFigures } from '../lib/run.fixture';
import type { GatewayRun } from './gateway-results';

/** A run of one probe (`me`) at 500 req/s with the given per-round figures of each contender. */
export function fixtureRun(
  throughput: RoundFigures,
  rate: RoundFigures,
  overrides: Partial<GatewayRun> = {},
): GatewayRun {
  return {
    benchmark: 'gateway',
    formatVersion: 1,
    ...measuredFixture(
      {
        probe: 'me',
        rate: 500,
        command: 'npm run bench:gateway -w bench',
        minutes: 10,
        topology: 'gateway and identity in one Node process',
      },
      throughput,
      rate,
    ),
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
    ...overrides,
  };
}
