import { measuredFixture, type RoundFigures } from '../lib/run.fixture';
import type { ContentRun } from './content-results';

/** A run of the headline probe (`page`) with the given per-round figures of each contender, at 1,000 req/s. */
export function fixtureRun(
  throughput: RoundFigures,
  rate: RoundFigures,
  overrides: Partial<ContentRun> = {},
): ContentRun {
  return {
    benchmark: 'content',
    formatVersion: 1,
    ...measuredFixture(
      {
        probe: 'page',
        rate: 1000,
        command: 'npm run bench:content -w bench',
        minutes: 12,
        topology: 'gateway, identity and content in one Node process',
      },
      throughput,
      rate,
    ),
    code: { commit: '0123456789abcdef', dirty: false, label: 'after' },
    seed: { posts: 10000, added: 9994, categories: 8, seconds: 7, how: 'one INSERT … SELECT' },
    probes: [
      {
        id: 'page',
        path: '/api/posts/public?limit=20',
        title: 'first page',
        description: 'the first page',
        headers: {},
        bodyBytes: 46213,
        totalCount: 10000,
        headline: true,
        fixedRate: true,
      },
    ],
    ...overrides,
  };
}
