import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { blogJourneys } from './journeys/blog.journey';
import { chatJourneys } from './journeys/chat.journey';
import { classroomJourneys } from './journeys/classroom.journey';
import { districtJourneys } from './journeys/district.journey';
import { keyboardJourneys } from './journeys/keyboard.journey';
import { layoutJourneys } from './journeys/layout.journey';
import { quizJourneys } from './journeys/quizzes.journey';
import { shellJourneys } from './journeys/shell.journey';
import { toolsJourneys } from './journeys/tools.journey';
import { AxeLog } from './support/axe';
import { launchBrowser } from './support/browser';
import { JourneyRunner, type Journey, type JourneyResult } from './support/harness';
import { cleanUpEverything } from './support/cleanup';
import { snapshotWebDist, startStack, TOPOLOGIES, type Stack, type Topology } from './support/stacks';

/**
 * The browser suite: for each topology, start the stack, run its journeys one at a time in one headless
 * Chromium, stop the stack. Options: --json=<file> (results), --topology=standalone,cluster, --journeys=1,2,3.
 */
const ARTIFACTS = path.resolve(__dirname, '../artifacts');
const ALL_JOURNEYS: readonly Journey[] = [
  ...shellJourneys,
  ...toolsJourneys,
  ...blogJourneys,
  ...chatJourneys,
  ...classroomJourneys,
  ...quizJourneys,
  ...districtJourneys,
  ...keyboardJourneys,
  ...layoutJourneys,
];

interface Options {
  json?: string;
  topologies: Topology[];
  journeys?: Set<number>;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const topologies = (value('topology') ?? TOPOLOGIES.join(','))
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of topologies)
    if (!TOPOLOGIES.includes(t as Topology)) throw new Error(`unknown topology ${t}`);
  const journeys = value('journeys');
  return {
    json: value('json'),
    topologies: topologies as Topology[],
    journeys: journeys ? new Set(journeys.split(',').map(Number)) : undefined,
  };
}

interface Summary {
  passed: number;
  failed: number;
  durationMs: number;
  topologies: Array<{ topology: Topology; startMs?: number; error?: string }>;
  results: JourneyResult[];
  /** Serious violations explained by known-a11y-issues.ts (web/ fixes pending). */
  knownA11y: Array<{ screen: string; rule: string; elements: number }>;
  artifacts: string;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  // Only this run's screenshots, PDFs and logs: a stale screenshot must not pass for a new failure.
  await rm(ARTIFACTS, { recursive: true, force: true });
  await mkdir(ARTIFACTS, { recursive: true });
  const axe = new AxeLog();
  const web = await snapshotWebDist();
  const summary: Summary = {
    passed: 0,
    failed: 0,
    durationMs: 0,
    topologies: [],
    results: [],
    knownA11y: [],
    artifacts: ARTIFACTS,
  };

  for (const topology of options.topologies) {
    const journeys = ALL_JOURNEYS.filter(
      (j) => j.topologies.includes(topology) && (!options.journeys || options.journeys.has(j.id)),
    );
    if (journeys.length === 0) continue;
    console.log(`\n${topology}: starting the stack…`);
    let stack: Stack;
    try {
      stack = await startStack(topology, ARTIFACTS, web.dir, runId);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.log(`  ✗ [${topology}] the stack did not start:\n${message.replace(/^/gm, '      ')}`);
      summary.topologies.push({ topology, error: message });
      // Every journey that should have run here counts as failed: a stack that does not start is a failure.
      for (const j of journeys) {
        summary.results.push({
          topology,
          id: j.id,
          title: j.title,
          status: 'failed',
          durationMs: 0,
          error: 'the stack did not start',
          screenshots: [],
        });
      }
      continue;
    }
    console.log(
      `${topology}: ${stack.baseUrl} ready in ${(stack.startMs / 1000).toFixed(1)} s (server log: ${stack.logFile})`,
    );
    summary.topologies.push({ topology, startMs: stack.startMs });
    const browser = await launchBrowser();
    const runner = new JourneyRunner(browser.browser, stack, ARTIFACTS, runId, axe);
    try {
      for (const journey of journeys) await runner.run(journey);
    } finally {
      await runner.close();
      await browser.close();
      const stopping = Date.now();
      await stack.stop();
      console.log(`${topology}: stopped in ${((Date.now() - stopping) / 1000).toFixed(1)} s`);
    }
    summary.results.push(...runner.results);
  }

  await web.remove();
  summary.passed = summary.results.filter((r) => r.status === 'passed').length;
  summary.failed = summary.results.filter((r) => r.status === 'failed').length;
  summary.durationMs = Date.now() - started;

  const axeReport = path.join(ARTIFACTS, 'axe-report.json');
  await writeFile(axeReport, JSON.stringify(axe.screens, null, 2));
  const minor = axe.screens.flatMap((s) =>
    s.violations
      .filter((v) => v.impact !== 'serious' && v.impact !== 'critical')
      .map((v) => `${s.screen}: ${v.id} (${v.impact})`),
  );
  console.log(
    `\naxe-core: ${axe.screens.length} screen checks; ${minor.length} minor/moderate finding(s) recorded in ${axeReport}`,
  );
  for (const m of [...new Set(minor)]) console.log(`  - ${m}`);
  summary.knownA11y = axe.known.map((k) => ({ screen: k.screen, rule: k.issue.rule, elements: k.nodes }));
  const knownRules = [...new Set(axe.known.map((k) => k.issue))];
  if (knownRules.length) {
    console.log(
      `\nKNOWN serious accessibility issues in web/ (listed in e2e/src/known-a11y-issues.ts; E2E_STRICT_A11Y=1 fails on them):`,
    );
    for (const k of knownRules) {
      const screens = [...new Set(axe.known.filter((f) => f.issue === k).map((f) => f.screen))];
      console.log(`  - ${k.rule}: ${k.why}\n      on: ${screens.join(', ')}\n      fix: ${k.fix}`);
    }
  }
  for (const k of axe.unmatchedKnown())
    console.log(
      `  note: known issue "${k.rule}" (${k.match}) did not occur in this run: if it is fixed, remove its entry.`,
    );

  if (options.json) {
    await mkdir(path.dirname(path.resolve(options.json)), { recursive: true });
    await writeFile(options.json, JSON.stringify(summary, null, 2));
  }
  console.log(
    `\ne2e: ${summary.passed} passed, ${summary.failed} failed in ${(summary.durationMs / 1000).toFixed(1)} s`,
  );
  return summary.failed === 0 && summary.passed > 0 ? 0 : 1;
}

// Interrupted (Ctrl-C, CI timeout): stop the stack we started so no server, port or database is left behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping…`);
    void cleanUpEverything().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    void cleanUpEverything().finally(() => process.exit(1));
  },
);
