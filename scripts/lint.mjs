#!/usr/bin/env node
// `npm run lint`: one ESLint run over the whole workspace. The module-boundary rule (@nx/enforce-module-boundaries)
// reads Nx's cached project graph and is skipped — with a warning, which --max-warnings=0 turns into a failure —
// when there is none (a fresh clone), so the graph is computed first, as `nx run-many -t lint` would.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const graph = spawnSync(bin('nx'), ['show', 'projects'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
if (graph.status !== 0) process.exit(graph.status ?? 1);
const args = process.argv.slice(2);
const run = spawnSync(bin('eslint'), [...(args.length ? args : ['.']), '--max-warnings=0'], { cwd: root, env, stdio: 'inherit' });
process.exit(run.status ?? 1);
