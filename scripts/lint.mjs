#!/usr/bin/env node
// `npm run lint`: one ESLint run over the whole workspace and `prettier --check` over the whole tree, side by side
// (issue #35: the formatter is enforced; an unformatted file fails lint). The module-boundary rule
// (@nx/enforce-module-boundaries) reads Nx's cached project graph and is skipped — with a warning, which
// --max-warnings=0 turns into a failure — when there is none (a fresh clone), so the graph is computed first, as
// `nx run-many -t lint` would. Arguments (paths) narrow both tools to those paths.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const graph = spawnSync(bin('nx'), ['show', 'projects'], {
  cwd: root,
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (graph.status !== 0) process.exit(graph.status ?? 1);
const args = process.argv.slice(2);
const targets = args.length ? args : ['.'];

const run = (name, command, commandArgs) =>
  new Promise((resolve) => {
    const child = spawn(bin(command), commandArgs, { cwd: root, env, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0) }));
    child.on('error', (error) => {
      console.error(`${name}: ${error.message}`);
      resolve({ name, code: 1 });
    });
  });

const results = await Promise.all([
  // --no-warn-ignored: a path ESLint does not lint (markdown, YAML) is not a warning when named on the command line.
  run('eslint', 'eslint', [...targets, '--max-warnings=0', '--no-warn-ignored']),
  // --log-level=warn: only the unformatted files are named; `npm run format` rewrites them.
  run('prettier', 'prettier', ['--check', '--log-level=warn', ...targets]),
]);
const failed = results.filter((r) => r.code !== 0);
for (const f of failed) {
  console.error(
    f.name === 'prettier'
      ? 'lint: the files above are not formatted; run `npm run format` (prettier --write .)'
      : 'lint: ESLint found problems',
  );
}
process.exit(failed.length ? 1 : 0);
