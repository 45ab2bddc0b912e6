import { closeSync, openSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT, freePort, hasExited, spawnTypeScript, stopChild } from '../lib/child-processes';

export interface RunningStack {
  pid: number;
  gatewayUrl: string;
  identityUrl: string;
  logFile: string;
  stop(): Promise<void>;
}

export interface StackOptions {
  logLevel: string;
  /** Keep the data directory (embedded database, keys, logs) after stopping. */
  keep: boolean;
  startTimeoutMs?: number;
}

interface ReadyBody {
  services?: { identity?: { replicas?: Array<{ url: string; up: boolean }> } };
}

/**
 * Starts the standalone topology exactly as `npm start` runs it: `launcher/src/main.ts --target=all` in
 * its own process (gateway and identity in one Node process, an embedded PostgreSQL beside it), from a
 * fresh data directory. The launcher is a process, not an import: bench may only depend on contracts and
 * the platform library, and a separate process keeps the load generator's CPU out of the measured one.
 *
 * The environment is an allow-list, so a developer's DATABASE_URL, NATS_URL or UPSTREAM_* cannot turn
 * the run into another topology. Identity's own URL comes from the gateway's /readyz.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'district-bench-gateway-'));
  // As root the embedded PostgreSQL runs as a `postgres` user, which must be able to enter this directory.
  await chmod(dataDir, 0o755);
  const logFile = path.join(dataDir, 'launcher.log');
  const logFd = openSync(logFile, 'a');
  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: process.env.LANG,
    TMPDIR: process.env.TMPDIR,
    TARGET: 'all',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: gatewayUrl,
    DATA_DIR: dataDir,
    // No SPA build: the benchmark exercises the API only.
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    DEMO: 'true',
    DEMO_PASSWORD: 'demo1234',
    LOG_LEVEL: options.logLevel,
  };
  const child = spawnTypeScript(path.join(REPO_ROOT, 'launcher/src/main.ts'), [], { env, stdio: ['ignore', logFd, logFd] });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await stopChild(child);
      closeSync(logFd);
      if (!options.keep) await rm(dataDir, { recursive: true, force: true });
    })());

  try {
    const deadline = Date.now() + (options.startTimeoutMs ?? 180_000);
    while (Date.now() < deadline) {
      if (hasExited(child)) throw new Error(`the launcher exited with ${child.exitCode}:\n${tail(logFile)}`);
      const identityUrl = await readyIdentity(gatewayUrl);
      if (identityUrl) return { pid: child.pid as number, gatewayUrl, identityUrl, logFile, stop };
      await sleep(250);
    }
    throw new Error(`the launcher was not ready within ${(options.startTimeoutMs ?? 180_000) / 1000} s:\n${tail(logFile)}`);
  } catch (error) {
    await stop();
    throw error;
  }
}

async function readyIdentity(gatewayUrl: string): Promise<string | undefined> {
  try {
    const res = await fetch(`${gatewayUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
    if (res.status !== 200) return undefined;
    const body = (await res.json()) as ReadyBody;
    return body.services?.identity?.replicas?.find((r) => r.up)?.url;
  } catch {
    return undefined;
  }
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
