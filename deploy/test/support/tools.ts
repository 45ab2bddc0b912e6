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
