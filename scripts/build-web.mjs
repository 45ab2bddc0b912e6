#!/usr/bin/env node
// Builds the web app when web/dist is missing or older than its sources. Runs after `npm install`
// (so `npm start` serves at once) and again from `npm start` in case sources changed since.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

export function ensureWebBuilt() {
  // Image builds install dependencies before the sources are copied in; they build the web app later.
  if (!existsSync(path.join(root, 'web/src')) || process.env.SKIP_WEB_BUILD) return 0;
  const index = path.join(root, 'web/dist/index.html');
  const sources = Math.max(
    newestMtime(path.join(root, 'web/src')),
    newestMtime(path.join(root, 'web/public')),
    statSync(path.join(root, 'web/index.html')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return 0;
  console.log('Building the web app…');
  return spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(ensureWebBuilt());
