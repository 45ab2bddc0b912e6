#!/usr/bin/env node
// `npm run bench:web:lighthouse`: builds the web app, starts the standalone site (`npm start`) on a free port with
// its own DATA_DIR, and runs Lighthouse 12 (mobile preset, simulated throttling, headless /usr/bin/chromium) three
// times on each public page of issue #15 — home, /blog, a lesson, the tools hub and the quiz screen, the last three
// signed in as the demo student — then writes bench/reports/web-lighthouse.md and .json.
//
// Options (environment): LIGHTHOUSE_RUNS (default 3), CHROME_PATH (default /usr/bin/chromium), SKIP_BUILD=1,
// BENCH_NOTE (a sentence about the machine's conditions, e.g. another job running), DEMO_PASSWORD (default demo1234),
// LIGHTHOUSE_PAGES (names, comma-separated, to measure only those), REPORT_ONLY=1 (rewrite the .md from the .json; with BENCH_NOTE, replacing its note).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const DEMO_STUDENT = { email: 'student@demo.school', password: process.env.DEMO_PASSWORD ?? 'demo1234' };
/** Issue #15's targets. */
const TARGETS = { score: 95, lcpMs: 1800, cls: 0.02 };

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForSite(base, child, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the site exited with code ${child.exitCode} (see its log)`);
    try {
      const res = await fetch(`${base}/api/posts/public?limit=1`);
      if (res.ok) return await res.json();
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the site did not answer within ${timeoutMs / 1000} s`);
}

/** Signs the demo student in and returns the session cookie(s) as a Cookie header value. */
async function signIn(base) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(DEMO_STUDENT),
  });
  if (!res.ok) throw new Error(`demo student sign-in answered ${res.status}: ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (cookies.length === 0) throw new Error('sign-in set no cookie');
  return cookies.join('; ');
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** What a report needs from one Lighthouse result, including what explains a missed target. */
function summarise(lhr) {
  const audit = (id) => lhr.audits[id];
  const shifts = audit('layout-shifts')?.details?.items ?? [];
  const lcpElement = audit('largest-contentful-paint-element')?.details?.items?.[0]?.items?.[0]?.node;
  const lcpPhases = audit('largest-contentful-paint-element')?.details?.items?.[1]?.items ?? [];
  const opportunities = [
    'render-blocking-resources',
    'unused-javascript',
    'unused-css-rules',
    'server-response-time',
    'redirects',
  ]
    .map((id) => ({
      id,
      ms: audit(id)?.metricSavings?.LCP ?? audit(id)?.numericValue ?? 0,
      bytes: audit(id)?.details?.overallSavingsBytes ?? 0,
    }))
    .filter((o) => o.ms > 0 || o.bytes > 0);
  return {
    finalUrl: lhr.finalDisplayedUrl,
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcpMs: audit('first-contentful-paint').numericValue,
    lcpMs: audit('largest-contentful-paint').numericValue,
    cls: audit('cumulative-layout-shift').numericValue,
    tbtMs: audit('total-blocking-time').numericValue,
    speedIndexMs: audit('speed-index').numericValue,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    lcpElement: lcpElement ? { selector: lcpElement.selector, snippet: lcpElement.snippet } : null,
    lcpPhases: lcpPhases.map((p) => ({ phase: p.phase, ms: Math.round(p.timing) })),
    shifts: shifts
      .slice(0, 5)
      .map((s) => ({ score: s.score, node: s.node?.selector ?? s.node?.snippet ?? null })),
    opportunities,
    requests: (audit('network-requests')?.details?.items ?? []).map((r) => ({
      url: r.url.replace(/^https?:\/\/[^/]+/, ''),
      kb: Math.round((r.transferSize ?? 0) / 102.4) / 10,
      // Asked for by a <link rel="preload"/"modulepreload"> of the page's HTML (ADR 0024), not by the app's code.
      ...(r.isLinkPreload ? { preloaded: true } : {}),
    })),
  };
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP on a busy machine): such a run is repeated. */
const ATTEMPTS = 3;
let retries = 0;

async function runLighthouse(url, cookie) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouseOnce(url, cookie);
    } catch (err) {
      if (attempt >= ATTEMPTS) throw err;
      retries += 1;
      console.warn(`retrying ${url}: ${err.message}`);
    }
  }
}

async function runLighthouseOnce(url, cookie) {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'lighthouse-chrome-'));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: CHROME_FLAGS,
    userDataDir,
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      // The mobile preset with simulated throttling is Lighthouse's default; said here so the report can repeat it.
      formFactor: 'mobile',
      throttlingMethod: 'simulate',
      extraHeaders: cookie ? { Cookie: cookie } : undefined,
    });
    if (!result?.lhr) throw new Error(`no Lighthouse result for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    chrome.kill();
    await rm(userDataDir, { recursive: true, force: true });
  }
}

function verdicts(page) {
  const m = page.median;
  const gap = (value, target, unit, higherIsBetter) => {
    const met = higherIsBetter ? value >= target : value <= target;
    const diff = Math.abs(value - target);
    const points = `${diff} point${diff === 1 ? '' : 's'}`;
    return met
      ? 'met'
      : `missed by ${unit === 'ms' ? `${Math.round(diff)} ms` : unit === '' ? diff.toFixed(3) : points}`;
  };
  return {
    score: gap(m.score, TARGETS.score, 'points', true),
    lcp: gap(m.lcpMs, TARGETS.lcpMs, 'ms', false),
    cls: gap(m.cls, TARGETS.cls, '', false),
  };
}

/** The cause of a missed target, from the median run's own audits. */
function causes(page) {
  const run = page.runs.find((r) => r.score === page.median.score) ?? page.runs[0];
  const out = [];
  const v = verdicts(page);
  if (v.lcp !== 'met' || v.score !== 'met') {
    if (run.lcpElement) out.push(`LCP element \`${run.lcpElement.selector}\``);
    if (run.lcpPhases.length)
      out.push(`LCP phases ${run.lcpPhases.map((p) => `${p.phase} ${p.ms} ms`).join(', ')}`);
    const entry = /\/assets\/(index|react-vendor)-[^/]+\.js$/;
    const schemas = /\/assets\/(schemas|[a-z]+-contract)-[^/]+\.js$/;
    const js = run.requests.filter(
      (r) => r.url.startsWith('/assets/') && r.url.endsWith('.js') && !entry.test(r.url),
    );
    const sum = (list) => list.reduce((total, r) => total + r.kb, 0).toFixed(1);
    const routeCode = js.filter((r) => !schemas.test(r.url));
    const schemaCode = js.filter((r) => schemas.test(r.url));
    const late = routeCode.filter((r) => !r.preloaded);
    const early = routeCode.filter((r) => r.preloaded);
    if (late.length)
      out.push(
        `the page's own code (${late.length} chunks, ${sum(late)} KB) is fetched once the entry has run: one more round trip before it renders`,
      );
    if (early.length)
      out.push(
        `the page's own code (${early.length} chunks, ${sum(early)} KB) is preloaded by its HTML, in parallel with the entry`,
      );
    if (schemaCode.length)
      out.push(`zod and the contract's schemas (${sum(schemaCode)} KB) load before the first paint`);
    for (const o of run.opportunities)
      out.push(
        `${o.id}: ${o.ms ? `~${Math.round(o.ms)} ms` : ''}${o.bytes ? ` ${Math.round(o.bytes / 1024)} KB` : ''}`.trim(),
      );
  }
  if (v.cls !== 'met') for (const s of run.shifts) out.push(`shift ${s.score.toFixed(3)} at \`${s.node}\``);
  if (run.tbtMs > 200) out.push(`TBT ${Math.round(run.tbtMs)} ms (main-thread work under 4× CPU slowdown)`);
  return out;
}

async function main() {
  if (process.env.REPORT_ONLY) {
    const saved = JSON.parse(await readFile(path.join(root, 'bench/reports/web-lighthouse.json'), 'utf8'));
    // BENCH_NOTE given with REPORT_ONLY replaces the kept note (in the .json too).
    if (process.env.BENCH_NOTE !== undefined) {
      saved.machine.note = process.env.BENCH_NOTE;
      await writeFile(
        path.join(root, 'bench/reports/web-lighthouse.json'),
        `${JSON.stringify(saved, null, 2)}\n`,
      );
    }
    await writeMarkdown(saved);
    return;
  }
  if (!process.env.SKIP_BUILD) {
    const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const chromeVersion = spawnSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'district-lighthouse-data-'));
  // The embedded database runs as its own user, which must be able to enter the folder (mkdtemp makes it 700).
  await chmod(dataDir, 0o755);
  // Outside DATA_DIR, so it outlives a failed run.
  const logPath = path.join(os.tmpdir(), `district-lighthouse-site-${port}.log`);
  const log = createWriteStream(logPath);
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const loadBefore = os.loadavg();
  const pages = [];
  try {
    console.log(`starting the site on ${base} (DATA_DIR ${dataDir}, log ${logPath})`);
    const firstPosts = await waitForSite(base, child, 240_000);
    const slug = firstPosts[0]?.slug;
    if (!slug) throw new Error('the demo site has no published lesson to measure');
    const cookie = await signIn(base);
    const targets = [
      { name: 'home', path: '/', signedIn: false },
      { name: '/blog', path: '/blog', signedIn: false },
      { name: 'lesson', path: `/blog/${slug}`, signedIn: true },
      { name: 'tools hub', path: '/educational-tools', signedIn: true },
      { name: 'quizzes (take screen)', path: '/text-quizzes', signedIn: true },
    ];
    // LIGHTHOUSE_PAGES=home,lesson measures only those (while working on one page).
    const only = process.env.LIGHTHOUSE_PAGES?.split(',').map((n) => n.trim());
    for (const target of targets.filter((t) => !only || only.includes(t.name))) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const lhr = await runLighthouse(`${base}${target.path}`, target.signedIn ? cookie : undefined);
        const run = summarise(lhr);
        runs.push(run);
        console.log(
          `${target.name} run ${i + 1}: score ${run.score}, LCP ${Math.round(run.lcpMs)} ms, CLS ${run.cls.toFixed(3)}, TBT ${Math.round(run.tbtMs)} ms`,
        );
      }
      const pick = (key) => runs.map((r) => r[key]);
      const stats = (key) => ({
        median: median(pick(key)),
        min: Math.min(...pick(key)),
        max: Math.max(...pick(key)),
      });
      const page = {
        ...target,
        runs,
        median: {
          score: median(pick('score')),
          lcpMs: median(pick('lcpMs')),
          cls: median(pick('cls')),
          tbtMs: median(pick('tbtMs')),
        },
        stats: {
          score: stats('score'),
          lcpMs: stats('lcpMs'),
          cls: stats('cls'),
          tbtMs: stats('tbtMs'),
          fcpMs: stats('fcpMs'),
        },
      };
      page.verdicts = verdicts(page);
      page.causes = causes(page);
      pages.push(page);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  }
  const loadAfter = os.loadavg();

  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    chrome: chromeVersion,
    lighthouse: (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version,
    loadavg1mBefore: loadBefore[0],
    loadavg1mAfter: loadAfter[0],
    benchmarkIndex: median(pages.flatMap((p) => p.runs.map((r) => r.benchmarkIndex))),
    note: process.env.BENCH_NOTE ?? '',
    retriedRuns: retries,
  };
  const generatedAt = new Date().toISOString();
  await writeFile(
    path.join(root, 'bench/reports/web-lighthouse.json'),
    `${JSON.stringify({ generatedAt, runsPerPage: RUNS, targets: TARGETS, machine, pages }, null, 2)}\n`,
  );

  await writeMarkdown({ generatedAt, machine, pages });
}

/** bench/reports/web-lighthouse.md from the figures (REPORT_ONLY=1 rewrites it from web-lighthouse.json). */
async function writeMarkdown({ generatedAt, machine, pages }) {
  const retries = machine.retriedRuns ?? 0;
  for (const page of pages) {
    page.verdicts = verdicts(page);
    page.causes = causes(page);
  }
  const ms = (v) => `${(v / 1000).toFixed(2)} s`;
  const range = (s, f) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
  const lines = [
    '# Web: Lighthouse on the public pages',
    '',
    `Generated by \`npm run bench:web:lighthouse\` (bench/web/lighthouse.mjs) on ${generatedAt.slice(0, 16).replace('T', ' ')} UTC: the built app served by \`npm start\` (standalone, a fresh DATA_DIR with the demo data), Lighthouse ${machine.lighthouse}, mobile preset, simulated throttling (150 ms RTT, 1.6 Mbps, 4× CPU slowdown), ${pages[0]?.runs.length ?? RUNS} runs per page, each in a fresh headless Chromium profile. Figures are the median of the runs with min–max. Targets (issue #15): performance ≥ ${TARGETS.score}, LCP ≤ ${TARGETS.lcpMs / 1000} s, CLS ≤ ${TARGETS.cls}.`,
    '',
    '| page | signed in | performance | LCP | CLS | TBT | FCP | score | LCP | CLS |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...pages.map(
      (p) =>
        `| ${p.name} (\`${p.path.replace(/^\/blog\/.+/, '/blog/{slug}')}\`) | ${p.signedIn ? 'demo student' : 'no'} | ${range(p.stats.score, String)} | ${range(p.stats.lcpMs, ms)} | ${range(p.stats.cls, (v) => v.toFixed(3))} | ${range(p.stats.tbtMs, (v) => `${Math.round(v)} ms`)} | ${range(p.stats.fcpMs, ms)} | ${p.verdicts.score} | ${p.verdicts.lcp} | ${p.verdicts.cls} |`,
    ),
    '',
    '## Where a target is missed',
    '',
    ...pages.flatMap((p) => (p.causes.length ? [`- **${p.name}**: ${p.causes.join('; ')}.`] : [])),
    ...(pages.every((p) => p.causes.length === 0) ? ['Every target is met on every page.'] : []),
    '',
    '## Machine',
    '',
    `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.chrome}. Load average (1 min) ${machine.loadavg1mBefore.toFixed(2)} before and ${machine.loadavg1mAfter.toFixed(2)} after the runs; Lighthouse's CPU benchmark index (median) ${Math.round(machine.benchmarkIndex)}. Simulated throttling scales the main-thread work Chromium actually did, so a busy machine inflates TBT and LCP.${retries ? ` ${retries} run(s) failed to record a trace and were repeated.` : ''}${machine.note ? ` ${machine.note}` : ''}`,
    '',
    'Per-run figures, LCP elements, layout-shift elements and the requests of every run are in web-lighthouse.json.',
    '',
  ];
  await writeFile(path.join(root, 'bench/reports/web-lighthouse.md'), lines.join('\n'));
  console.log(lines.slice(4, 5 + pages.length).join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
