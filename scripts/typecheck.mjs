#!/usr/bin/env node
// `npm run typecheck`: the whole workspace in three TypeScript programs — every Node project at once
// (tsconfig.typecheck.json), the browser journeys (e2e/, DOM types) and the web app (web/, JSX and Vite types).
// One program for the Node projects checks the shared libs once instead of once per project (`nx run-many -t
// typecheck` remains for a single project's check). Exits non-zero on the first program with errors.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
for (const project of ['tsconfig.typecheck.json', 'e2e/tsconfig.json', 'web/tsconfig.json']) {
  const started = Date.now();
  const run = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: root, stdio: 'inherit' });
  console.log(
    `typecheck ${project}: ${run.status === 0 ? 'ok' : 'errors'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
}
