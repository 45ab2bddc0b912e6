/**
 * Node and V8 flags a service's process must start with. Some V8 settings only take effect when V8 starts
 * (`--no-memory-reducer`: set later with v8.setFlagsFromString the reducer is already running — measured),
 * and NODE_OPTIONS refuses most V8 flags, so a service that needs one declares it in its own manifest:
 *
 *   services/<name>/package.json   "district": { "nodeFlags": ["--no-memory-reducer"] }
 *
 * The manifest is read without loading the service (importing the registry costs 1.1–1.7 s, most of a
 * target's start-up), so the launcher can decide before it loads anything whether to restart itself with
 * them. Three ways in, one declaration:
 * - `npm run start:cluster` passes them on each replica's command line (`cluster.ts`);
 * - the image (`node launcher/dist/main.js --target=<name>`, compose and the chart) restarts itself in
 *   place with `process.execve` (same PID, so the container's signals still reach it) when they are missing;
 * - a Node without `process.execve` (before 22.15) runs without them and says so once.
 * `--target=all` (the standalone site) hosts every service in one process and applies none: it is the
 * newcomer's single process, where V8's idle memory reduction is worth more than streaming throughput. It sets
 * its own heap growth instead (STANDALONE_RUNTIME_FLAGS), a flag V8 reads at every full collection.
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags the standalone process (`--target=all`) sets on itself first thing: they take effect at the next full
 * collection, so no restart is needed, on any Node. `--heap-growing-percent=50`: the old generation may grow to
 * 1.5× what the last full collection kept before the next one, where V8 would otherwise allow up to 4× on a host
 * with plenty of memory and no container limit (a newcomer's machine, a school's server). Measured on a 40,000-pupil
 * roster import (bench/reports/district.md): the process's live heap grew about 30 MB while its RSS grew 345 MB
 * without the flag — garbage awaiting a collection V8 had no reason to run — and about 100 MB with it, the import no
 * slower. A flag the process was started with wins (same name, any value).
 */
export const STANDALONE_RUNTIME_FLAGS: readonly string[] = ['--heap-growing-percent=50'];

/** Sets STANDALONE_RUNTIME_FLAGS when the targets include `all`; answers the flags it set. */
export function applyStandaloneFlags(
  targets: readonly string[],
  execArgv: readonly string[],
  set: (flag: string) => void = setFlagsFromString,
): string[] {
  if (!targets.includes('all')) return [];
  const name = (flag: string) => flag.split('=')[0].replace(/_/g, '-');
  const given = new Set(execArgv.map(name));
  const applied = STANDALONE_RUNTIME_FLAGS.filter((flag) => !given.has(name(flag)));
  for (const flag of applied) set(flag);
  return applied;
}

export interface NodeFlagsManifest {
  district?: { nodeFlags?: unknown };
}

type ReadManifest = (name: string) => NodeFlagsManifest | undefined;

/** A flag is one `--name` or `--name=value` token: nothing that could smuggle a script or a second argument. */
const FLAG = /^--[a-z0-9][a-z0-9-]*(=[A-Za-z0-9._-]+)?$/;

export const readWorkspaceManifest: ReadManifest = (name) => {
  try {
    return JSON.parse(
      readFileSync(require.resolve(`@district/${name}/package.json`), 'utf8'),
    ) as NodeFlagsManifest;
  } catch {
    return undefined;
  }
};

/** The flags the named targets declare, in declaration order, each once; `all` and `gateway` declare none. */
export function nodeFlagsFor(
  targets: readonly string[],
  read: ReadManifest = readWorkspaceManifest,
): string[] {
  const flags: string[] = [];
  for (const target of targets) {
    if (target === 'all' || target === 'gateway' || !/^[a-z0-9]+$/.test(target)) continue;
    const declared = read(target)?.district?.nodeFlags;
    if (declared === undefined) continue;
    if (
      !Array.isArray(declared) ||
      !declared.every((f): f is string => typeof f === 'string' && FLAG.test(f))
    ) {
      throw new Error(`services/${target}/package.json: district.nodeFlags must be a list of --flag tokens`);
    }
    for (const flag of declared) if (!flags.includes(flag)) flags.push(flag);
  }
  return flags;
}

/** The flags of `wanted` that this process did not start with (V8 also accepts `_` for `-`). */
export function missingFlags(wanted: readonly string[], execArgv: readonly string[]): string[] {
  const canonical = (flag: string) => flag.replace(/_/g, '-');
  const have = new Set(execArgv.map(canonical));
  return wanted.filter((flag) => !have.has(canonical(flag)));
}

export interface RestartHost {
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never;
  warn(message: string): void;
}

/** Set on the restarted process: a restart that still lacks the flags must not loop. */
export const RESTARTED_ENV = 'DISTRICT_NODE_FLAGS_RESTARTED';

/**
 * Restarts this process in place with the targets' flags when it lacks them. Returns only when no restart is
 * needed or possible (execve replaces the process otherwise).
 */
export function ensureNodeFlags(targets: readonly string[], host: RestartHost, read?: ReadManifest): void {
  const missing = missingFlags(nodeFlagsFor(targets, read), host.execArgv);
  if (missing.length === 0) return;
  if (!host.execve || host.env[RESTARTED_ENV]) {
    const them = missing.length > 1 ? 'them' : 'it';
    host.warn(
      `running without ${missing.join(' ')} (declared by ${targets.join(',')}): start node with ${them}`,
    );
    return;
  }
  host.execve(host.execPath, [host.execPath, ...host.execArgv, ...missing, ...host.argv.slice(1)], {
    ...host.env,
    [RESTARTED_ENV]: '1',
  });
}
