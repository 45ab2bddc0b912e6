#!/usr/bin/env node
// `npm start` (standalone) and `npm run start:cluster`: build the web app if its sources changed, then run
// the launcher. TypeScript runs through @swc-node/register, so there is no separate backend build step.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cluster = process.argv.includes('--cluster');
const passThrough = process.argv.slice(2).filter((a) => a !== '--cluster');

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

const webIndex = path.join(root, 'web/dist/index.html');
const webStale =
  !existsSync(webIndex) ||
  Math.max(newestMtime(path.join(root, 'web/src')), newestMtime(path.join(root, 'web/public'))) > statSync(webIndex).mtimeMs;
if (webStale && !process.env.SKIP_WEB_BUILD) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const entry = path.join(root, cluster ? 'launcher/src/cluster.ts' : 'launcher/src/main.ts');
const child = spawn(process.execPath, ['-r', '@swc-node/register', entry, ...passThrough], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.runtime.json') },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
