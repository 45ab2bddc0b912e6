#!/usr/bin/env node
// The browser suite's entry point (`npm test` calls it): builds the web app if its sources changed, then runs
// the TypeScript journeys (src/main.ts) through swc-node. Options pass through: --json=<file> (results as
// { passed, failed, … }), --topology=standalone,cluster, --journeys=1,2,3. Exits non-zero on any failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const jsonArg = args.find((a) => a.startsWith('--json='));
const jsonFile = jsonArg ? path.resolve(jsonArg.slice('--json='.length)) : undefined;

function writeFailure(reason) {
  if (!jsonFile) return;
  mkdirSync(path.dirname(jsonFile), { recursive: true });
  writeFileSync(jsonFile, JSON.stringify({ passed: 0, failed: 1, error: reason }, null, 2));
}

// Same staleness rule as `npm start`: rebuild when web/dist is missing or older than its sources.
const { ensureWebBuilt } = await import(pathToFileURL(path.join(root, 'scripts/build-web.mjs')).href);
const built = ensureWebBuilt();
if (built !== 0) {
  writeFailure('the web build failed');
  process.exit(built);
}

if (jsonFile && existsSync(jsonFile)) writeFileSync(jsonFile, '');
const child = spawn(process.execPath, ['-r', '@swc-node/register', path.join(here, 'src/main.ts'), ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.runtime.json') },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  // The journeys write the results; if they could not (a crash), the run still reports a failure.
  let results;
  try {
    results = jsonFile ? JSON.parse(readFileSync(jsonFile, 'utf8')) : undefined;
  } catch {
    results = undefined;
  }
  if (jsonFile && (!results || typeof results.passed !== 'number'))
    writeFailure(`the suite exited (${signal ?? code}) without results`);
  process.exit(code ?? 1);
});
