#!/usr/bin/env node
// The browser suite's entry point (`npm test` calls it): builds the web app if its sources changed, then runs
// the TypeScript journeys (src/main.ts) through swc-node. Options pass through: --json=<file> (results as
// { passed, failed, … }), --topology=standalone,cluster, --journeys=1,2,3. Exits non-zero on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

// Same staleness rule as `npm start`: rebuild when web/dist is missing or older than web/src, web/public or
// web/index.html. scripts/build-web.mjs holds it; the copy below is only for a checkout without that script.
function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function ensureWebBuiltHere() {
  const index = path.join(root, 'web/dist/index.html');
  const sources = Math.max(newestMtime(path.join(root, 'web/src')), newestMtime(path.join(root, 'web/public')), statSync(path.join(root, 'web/index.html')).mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return 0;
  console.log('e2e: building the web app (web/dist is missing or older than its sources)…');
  return spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

const shared = path.join(root, 'scripts/build-web.mjs');
const ensureWebBuilt = existsSync(shared) ? (await import(pathToFileURL(shared).href)).ensureWebBuilt : ensureWebBuiltHere;
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
  if (jsonFile && (!results || typeof results.passed !== 'number')) writeFailure(`the suite exited (${signal ?? code}) without results`);
  process.exit(code ?? 1);
});
