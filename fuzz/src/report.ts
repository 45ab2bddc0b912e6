import os from 'node:os';
import type { Persona } from './checks';
import { PERSONAS } from './checks';

export interface RouteTally {
  route: string;
  access: string;
  /** Requests sent per persona. */
  sent: Partial<Record<Persona, number>>;
  /** How often each status was answered, all personas together. */
  statuses: Record<string, number>;
}

export interface FuzzRun {
  seed: number;
  runsPerRoute: number;
  startedAt: string;
  siteStartMs: number;
  fuzzMs: number;
  routes: RouteTally[];
  /** Tables compared before and after the refused callers' requests, and those that changed (none is the goal). */
  tablesCompared: number;
  tablesChanged: string[];
  problems: string[];
}

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export function renderReport(run: FuzzRun): string {
  const total = run.routes.reduce(
    (sum, r) => sum + Object.values(r.sent).reduce((a, b) => a + (b ?? 0), 0),
    0,
  );
  const statusTotals: Record<string, number> = {};
  for (const r of run.routes)
    for (const [s, n] of Object.entries(r.statuses)) statusTotals[s] = (statusTotals[s] ?? 0) + n;
  const fmt = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
  const lines = [
    '# Every route fuzzed',
    '',
    'Written by `fuzz/src/routes.fuzz.spec.ts` (part of `npm test`; alone: `npx jest -c fuzz/jest.config.js`).',
    'The whole site (`--target=all`: the gateway and the five services) runs against a throwaway database on the local',
    'PostgreSQL, the local NATS and Redis. Each route of the merged OpenAPI document (`/api/docs/openapi.json`) gets',
    `${run.runsPerRoute} fast-check requests per persona, generated from its path, query and body schemas.`,
    '',
    `- Seed: \`${run.seed}\` (replay with \`FUZZ_SEED=${run.seed}\`; \`FUZZ_RUNS\` sets the requests per route and persona)`,
    `- Run: ${run.startedAt}; site ready in ${(run.siteStartMs / 1000).toFixed(1)} s; fuzzing took ${(run.fuzzMs / 1000).toFixed(1)} s`,
    `- Machine: ${machine()}`,
    `- Routes: ${run.routes.length}; personas: ${PERSONAS.join(', ')}; requests: ${total}`,
    `- Statuses, all requests: ${fmt(statusTotals)}`,
    `- Refused callers changed no data: ${run.tablesChanged.length === 0 ? 'yes' : `NO (${run.tablesChanged.join(', ')})`} — ${run.tablesCompared} tables digested before and after every refused request`,
    `- Problems found: ${run.problems.length}`,
    '',
    'Checks on every answer: no status ≥ 500; no stack frame, file path, SQL or internal class/module name in an error body;',
    'every 4xx is JSON with a string `message`; a persona the route refuses (by its `x-access`, cross-checked against',
    "services/*/test/authz-matrix.json) gets exactly the matrix's refusal, unless the request was refused before any route code:",
    'its size (413/414/431), a foreign origin (403), a body the HTTP layer cannot parse (400/415), a malformed URL (400), or a',
    'hostile id that made the path name no route (404/400); and no table changes meanwhile. The 501s are the OpenID routes on',
    'a site with no provider configured, which the identity matrix expects (an HTML page for the browser).',
    '',
  ];
  lines.push(
    '## Bugs this suite found (fixed, each with a regression test in its service)',
    '',
    "- gateway: a URL or headers past 16 KiB (431) or a request line Node cannot parse (400) got Node's bare status line, no JSON body — now the platform's JSON error (`gateway/test/client-errors.spec.ts`).",
    '- content: `POST /api/posts/{postId}/comments` checked the post id before the sign-in, so a signed-out caller got 404/400 instead of 401 "Please sign in to comment" (`services/content/test/comments.spec.ts`).',
    '- content: `POST /api/upload-image` answered 500 to a cut-off or malformed multipart form — now 400 "Please select an image file" (`services/content/test/images.spec.ts`).',
    '- content: posts created at the same moment with one title raced for one slug; past three retries the losers got 500 — slug choice is now serialised per base slug (`services/content/test/posts.spec.ts`).',
    '',
  );
  if (run.problems.length) {
    lines.push(
      '## Problems',
      '',
      ...run.problems.slice(0, 50).map((p) => `- ${p.replace(/\n/g, ' ').slice(0, 400)}`),
      '',
    );
  }
  lines.push(
    '## Requests per route',
    '',
    `| Route | Access | ${PERSONAS.join(' | ')} | Statuses |`,
    `|---|---|${PERSONAS.map(() => '---:').join('|')}|---|`,
    ...run.routes.map(
      (r) =>
        `| \`${r.route}\` | ${r.access} | ${PERSONAS.map((p) => r.sent[p] ?? 0).join(' | ')} | ${fmt(r.statuses)} |`,
    ),
    '',
  );
  return lines.join('\n');
}
