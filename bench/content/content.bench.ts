import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BareAnswer } from '../lib/bare-server';
import {
  COMMON_OPTIONS,
  benchCommand,
  commonOptions,
  positive,
  type CommonOptions,
} from '../lib/bench-options';
import { fetchAnswer, progressLog, runContest } from '../lib/bench-run';
import { REPO_ROOT } from '../lib/child-processes';
import { embeddedDatabaseUrl } from '../lib/launcher-stack';
import { CONTENDERS } from '../lib/results';
import { renderContentReport } from './content-report';
import type { CodeVersion, ContentProbeInfo, ContentRun } from './content-results';
import { seedPosts } from './content-seed';

const USAGE = `Content benchmark: GET /api/posts/public with 10,000 posts, through the gateway vs content direct
vs a bare Node http server answering the same JSON.

  npm run bench:content -w bench -- [options]

  --rounds N            rounds of each phase, contenders alternated (default 3)
  --duration S          seconds per maximum-throughput round (default 10)
  --warmup S            seconds of warm-up per contender and probe (default 5)
  --connections N       connections of the maximum-throughput load (default 50)
  --rate LIST           fixed rates in req/s, the target's first (default 1000)
  --rate-duration S     seconds per fixed-rate round (default 10)
  --rate-connections N  most connections the fixed-rate client opens (default 50)
  --probes LIST         comma-separated: ${'page,page-fresh,deep,category,search'} (default all)
  --posts N             published posts in the database (default 10000)
  --tool wrk|undici     closed-loop load generator (default wrk when installed)
  --log-level LEVEL     the launcher's LOG_LEVEL (default info, as npm start)
  --label TEXT          what the measured code stands for in a comparison (default "after")
  --before FILE         an earlier content.json to compare with (kept inside this run's JSON;
                        with --report-only, replaces the one kept)
  --notes FILE          Markdown shown under the targets (what changed between the runs; kept too)
  --out DIR             where content.json and content.md go (default bench/reports)
  --keep                keep the launcher's data directory and log
  --no-pin              do not pin the servers to CPU 1 and the load generator to CPU 0 (taskset)
  --node PATH           the Node binary the servers run on (default this script's own)
  --report-only         render content.md again from the existing content.json
`;

/** A cache-bypassing client (fetch with cache: 'no-cache' or 'no-store', a browser's reload) sends this. */
const BYPASS = { 'cache-control': 'no-cache' };

const PROBES: Record<string, Omit<ContentProbeInfo, 'bodyBytes' | 'totalCount'>> = {
  page: {
    id: 'page',
    path: '/api/posts/public?limit=20',
    title: 'first page',
    headline: true,
    fixedRate: true,
    headers: {},
    description:
      "the blog list's first page of 20 lessons (full content, as the list answers), as a visitor's browser asks for it: " +
      "the issue's headline.",
  },
  'page-fresh': {
    id: 'page-fresh',
    path: '/api/posts/public?limit=20',
    title: 'first page, cache bypassed',
    headline: false,
    fixedRate: false,
    headers: BYPASS,
    description:
      'the same page from a client bypassing caches: the answer is built from the database every time (the page query, ' +
      'the total count, JSON, ETag).',
  },
  deep: {
    id: 'deep',
    path: '/api/posts/public?page=200&limit=20',
    title: 'deep page',
    headline: false,
    fixedRate: false,
    headers: BYPASS,
    description: 'page 200 (offset 3,980), from the database every time: what deep pagination costs.',
  },
  category: {
    id: 'category',
    path: '/api/posts/public?category=grammar&limit=20',
    title: 'category filter',
    headline: false,
    fixedRate: false,
    headers: BYPASS,
    description:
      'the first page of one category (by slug; about one post in nine), from the database every time.',
  },
  search: {
    id: 'search',
    path: '/api/posts/public?q=subjunctive&limit=20',
    title: 'full-text search',
    headline: false,
    fixedRate: false,
    headers: BYPASS,
    description:
      'a `q=` search (PostgreSQL full text, prefix match; about one post in twenty matches), from the database every time.',
  },
};

const progress = progressLog('content');

interface Options extends CommonOptions {
  posts: number;
  label: string;
  before?: string;
  notes?: string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...COMMON_OPTIONS,
      posts: { type: 'string' },
      label: { type: 'string' },
      before: { type: 'string' },
      notes: { type: 'string' },
    },
  });
  return {
    ...commonOptions(values, { usage: USAGE, probes: Object.keys(PROBES), rates: '1000' }),
    posts: Math.round(positive('posts', values.posts, 10_000)),
    label: values.label ?? 'after',
    before: values.before ? path.resolve(values.before) : undefined,
    notes: values.notes ? path.resolve(values.notes) : undefined,
  };
}

interface Fetched {
  body: string;
  etag: string;
  totalCount: number;
}

async function fetchProbe(
  origin: string,
  probe: Omit<ContentProbeInfo, 'bodyBytes' | 'totalCount'>,
): Promise<Fetched> {
  const { body, headers } = await fetchAnswer(origin, probe);
  return { body, etag: headers.get('etag') ?? '', totalCount: Number(headers.get('x-total-count')) };
}

function describeTopology(logLevel: string): string {
  return (
    '`launcher/src/main.ts --target=all` started as `npm start` starts it (standalone): the gateway, identity and content ' +
    'in one Node process (one event loop; each service on its own loopback port), an embedded PostgreSQL in its own ' +
    `processes, in-process bus and pub/sub. LOG_LEVEL=${logLevel}: each request through the gateway writes one JSON log line ` +
    'from content and one from the gateway (to a file here).'
  );
}

const SEED_HOW =
  'Seeded after the launcher started, straight into the embedded PostgreSQL the launcher runs (port from its postmaster.pid, schema `content`): ' +
  'eight categories, then one `INSERT … SELECT generate_series` writing rows as posts.service.ts does (HTML content of ~1.4 KB and its ' +
  'plain text, excerpt, read time, category, tags, the demo authors, distinct publication times), then `VACUUM ANALYZE`, as autovacuum ' +
  "would after such an insert (bench/content/content-seed.ts). The demo's own lessons count towards the total.";

function codeVersion(label: string): CodeVersion {
  const git = (args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  try {
    // Only what runs in the measured process counts as a change of the measured code.
    const dirty = git(['status', '--porcelain', '--', 'services', 'gateway', 'libs', 'launcher']) !== '';
    return { commit: git(['rev-parse', 'HEAD']), dirty, label };
  } catch {
    return { commit: 'unknown', dirty: true, label };
  }
}

async function run(options: Options): Promise<ContentRun> {
  const code = codeVersion(options.label);
  const measured = await runContest(options, {
    service: 'content',
    prefix: 'district-bench-content-',
    probes: options.probes.map((id) => ({ id, contenders: CONTENDERS, fixedRate: PROBES[id].fixedRate })),
    progress,
    request: (id) => ({ path: PROBES[id].path, headers: PROBES[id].headers }),
    prepare: async (launcher) => {
      const seeded = await seedPosts(await embeddedDatabaseUrl(launcher.dataDir), 'content', options.posts);
      progress(
        `seeded ${seeded.added} posts in ${seeded.seconds.toFixed(1)} s: ${seeded.posts} published, ${seeded.categories} categories`,
      );
      const fetched: Record<string, Fetched> = {};
      for (const id of options.probes) fetched[id] = await fetchProbe(launcher.gatewayUrl, PROBES[id]);
      const headline = fetched.page;
      if (headline && headline.totalCount !== seeded.posts) {
        throw new Error(
          `the list counts ${headline.totalCount} posts, the database ${seeded.posts}: the seed is not what the service sees`,
        );
      }
      for (const [id, f] of Object.entries(fetched)) {
        if ((JSON.parse(f.body) as unknown[]).length !== 20)
          throw new Error(`${id} answered ${f.body.length} bytes, not a page of 20 posts`);
      }
      const answers: Record<string, BareAnswer> = {};
      const bodies: Record<string, string> = {};
      for (const [id, f] of Object.entries(fetched)) {
        answers[PROBES[id].path] = {
          body: f.body,
          headers: { etag: f.etag, 'x-total-count': String(f.totalCount) },
        };
        bodies[id] = f.body;
      }
      return { state: { seeded, fetched }, answers, bodies };
    },
  });
  const { seeded, fetched } = measured.state;
  return {
    benchmark: 'content',
    formatVersion: 1,
    command: benchCommand('bench:content', process.argv.slice(2), ['--before', '--notes']),
    ...measured.context,
    code,
    settings: measured.settings,
    topology: describeTopology(options.logLevel),
    seed: {
      posts: seeded.posts,
      added: seeded.added,
      categories: seeded.categories,
      seconds: seeded.seconds,
      how: SEED_HOW,
    },
    probes: options.probes.map((id) => ({
      ...PROBES[id],
      bodyBytes: Buffer.byteLength(fetched[id].body),
      totalCount: fetched[id].totalCount,
    })),
    ...measured.rounds,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const jsonFile = path.join(options.out, 'content.json');
  const mdFile = path.join(options.out, 'content.md');
  // Read first, so a wrong path fails before ten minutes of measuring rather than after.
  const before = options.before
    ? (JSON.parse(await readFile(options.before, 'utf8')) as ContentRun)
    : undefined;
  const notes = options.notes ? await readFile(options.notes, 'utf8') : undefined;
  const result = options.reportOnly
    ? (JSON.parse(await readFile(jsonFile, 'utf8')) as ContentRun)
    : await run(options);
  // With --report-only, --before and --notes replace what the run carries (the measurements stay as they are).
  if (before) result.before = { ...before, before: undefined, notes: undefined };
  if (notes) result.notes = notes;
  const rewriteJson = !options.reportOnly || before !== undefined || notes !== undefined;
  await mkdir(options.out, { recursive: true });
  if (rewriteJson) await writeFile(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(mdFile, renderContentReport(result));
  progress(
    `wrote ${path.relative(process.cwd(), mdFile)}${rewriteJson ? ` and ${path.relative(process.cwd(), jsonFile)}` : ''}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
