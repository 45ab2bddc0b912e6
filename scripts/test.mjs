#!/usr/bin/env node
// `npm test`: lint, typecheck, every Jest project, the web tests, the fault suite's short version, then the
// browser journeys.
// Prints one closing line "tests: N passed, N failed" summing all test layers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'coverage', 'test-results');
mkdirSync(out, { recursive: true });
const only = process.argv.slice(2);
const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  SWC_NODE_PROJECT: path.join(root, 'tsconfig.runtime.json'),
};
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
// The names of the failed tests, printed again beside the closing line: CI keeps only the end of the output.
const failedNames = [];

function step(name, command, args, results) {
  if (only.length && !only.includes(name)) return;
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  const counts = results ? results() : null;
  if (counts) {
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped ?? 0;
    failedNames.push(...(counts.names ?? []));
  }
  const ok = run.status === 0 && (!counts || counts.failed === 0);
  if (!ok) failures.push(name);
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const jsonCounts = (file, pick) => () => {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  return pick(JSON.parse(readFileSync(file, 'utf8')));
};

/** Jest's and Vitest's JSON reports share this shape: each file's failed assertions, and a file that did not run. */
function failedTests(step, report) {
  const names = [];
  let filesWithoutTests = 0;
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name ?? file.testFilePath ?? '');
    const failedHere = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedHere) names.push(`${step}: ${where} > ${a.fullName ?? a.title}`);
    if (!failedHere.length && file.status === 'failed') {
      filesWithoutTests += 1;
      const why = String(file.message ?? file.failureMessage ?? '')
        .split('\n')
        .find((line) => line.trim());
      names.push(`${step}: ${where} (the file failed: ${why ?? 'no message'})`);
    }
  }
  return { names, filesWithoutTests };
}

// One ESLint run over the whole workspace (scripts/lint.mjs, after Nx's project graph, which the module-boundary
// rule needs), and three TypeScript programs (scripts/typecheck.mjs): the same rules
// and options as each project's own `lint`/`typecheck` target, without starting ESLint and re-checking the shared
// libs once per project (CI spent 165 s there, now about a third of it).
step('lint', process.execPath, ['scripts/lint.mjs']);
step('typecheck', process.execPath, ['scripts/typecheck.mjs']);
const jestOut = path.join(out, 'jest.json');
step(
  'jest',
  'npx',
  ['jest', '--maxWorkers=2', '--json', `--outputFile=${jestOut}`],
  jsonCounts(jestOut, (r) => ({
    passed: r.numPassedTests,
    failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0),
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    names: failedTests('jest', r).names,
  })),
);
const webOut = path.join(out, 'web.json');
step(
  'web',
  'npx',
  ['vitest', 'run', '--root', 'web', '--reporter=default', '--reporter=json', `--outputFile.json=${webOut}`],
  jsonCounts(webOut, (r) => {
    const { names, filesWithoutTests } = failedTests('web', r);
    return {
      passed: r.numPassedTests,
      // A file that failed without a failed test (it did not load) counts once; one with failed tests is counted by
      // them (numFailedTestSuites counted both).
      failed: r.numFailedTests + filesWithoutTests,
      skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      names,
    };
  }),
);
// Issue #14 §3: the fault suite's short version (two replicas of each service under load; rolling restart,
// killed replicas, NATS, Redis and PostgreSQL outages). Each of its checks counts as a test.
const faultsOut = path.join(out, 'faults');
rmSync(faultsOut, { recursive: true, force: true });
step(
  'faults',
  'npm',
  ['run', 'bench:faults', '-w', 'bench', '--', '--short', `--out=${faultsOut}`],
  jsonCounts(path.join(faultsOut, 'faults.json'), (r) => {
    const checks = r.scenarios.flatMap((s) => s.checks);
    return { passed: checks.filter((c) => c.ok).length, failed: checks.filter((c) => !c.ok).length };
  }),
);
if (existsSync(path.join(root, 'e2e/run.mjs'))) {
  const e2eOut = path.join(out, 'e2e.json');
  step(
    'e2e',
    'node',
    ['e2e/run.mjs', `--json=${e2eOut}`],
    jsonCounts(e2eOut, (r) => ({ passed: r.passed, failed: r.failed, skipped: r.skipped ?? 0 })),
  );
}

// A test that skips in CI is a test that is missing: CI installs everything every test needs.
if (skipped > 0 && process.env.CI) failures.push(`${skipped} skipped test(s) under CI`);
if (failedNames.length) console.log(`\nFailed tests:\n${failedNames.map((n) => `  ${n}`).join('\n')}`);
if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failures.length ? 1 : 0);
