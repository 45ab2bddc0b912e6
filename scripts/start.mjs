#!/usr/bin/env node
// `npm start` (standalone) and `npm run start:cluster`: make sure the web app is built, then run the
// launcher. TypeScript runs through @swc-node/register, so there is no separate backend build step.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWebBuilt } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cluster = process.argv.includes('--cluster');
const passThrough = process.argv.slice(2).filter((a) => a !== '--cluster');

const status = ensureWebBuilt();
if (status !== 0) process.exit(status);

const entry = path.join(root, cluster ? 'launcher/src/cluster.ts' : 'launcher/src/main.ts');
const child = spawn(process.execPath, ['-r', '@swc-node/register', entry, ...passThrough], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.runtime.json') },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
