import { closeSync, openSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT, freePort, hasExited, spawnTypeScript, stopChild } from './child-processes';

export interface RunningLauncher {
  pid: number;
  gatewayUrl: string;
  /** Each service's own loopback URL (its first replica that is up), from the gateway's /metrics. */
  serviceUrls: Record<string, string>;
  /** The launcher's DATA_DIR: the embedded PostgreSQL lives in `postgres/` under it. */
  dataDir: string;
  logFile: string;
  stop(): Promise<void>;
}

export interface LauncherOptions {
  logLevel: string;
  /** Keep the data directory (embedded database, keys, logs) after stopping. */
  keep: boolean;
  /** Services whose URL the caller needs: the launcher counts as ready once each has a replica up. */
  services: readonly string[];
  /** Prefix of the temporary data directory's name. */
  prefix: string;
  startTimeoutMs?: number;
  /** CPUs the launcher (and everything it starts: the embedded PostgreSQL) runs on (taskset -c); anywhere when absent. */
  cpus?: string;
  /** The launcher's TARGET: `all` (the default, `npm start`'s standalone topology) or e.g. `gateway`. */
  target?: string;
  /** More environment on top of the allow-list, e.g. a lone gateway's UPSTREAM_<NAME> and AUTH_PUBLIC_KEY. */
  env?: Record<string, string>;
  /** Flags for the launcher's node (before the script), e.g. `--trace-gc` to look into its memory. */
  nodeArgs?: readonly string[];
}

/**
 * Starts the standalone topology exactly as `npm start` runs it: `launcher/src/main.ts --target=all` in its
 * own process (the gateway and every service in one Node process, an embedded PostgreSQL beside it), from a
 * fresh data directory. The launcher is a process, not an import: bench may only depend on contracts and
 * the platform library, and a separate process keeps the load generator's CPU out of the measured one.
 *
 * The environment is an allow-list, so a developer's DATABASE_URL, NATS_URL or UPSTREAM_* cannot turn the
 * run into another topology. The services' own URLs come from the gateway's /metrics.
 *
 * With `target: 'gateway'` and `env` naming its upstreams, the same call starts a lone gateway in its own
 * process, as the cluster runs it: ready once each of `services` has a replica up behind it.
 */
export async function startLauncher(options: LauncherOptions): Promise<RunningLauncher> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), options.prefix));
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
    TARGET: options.target ?? 'all',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: gatewayUrl,
    DATA_DIR: dataDir,
    // No SPA build: the benchmarks exercise the API only.
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    DEMO: 'true',
    DEMO_PASSWORD: 'demo1234',
    LOG_LEVEL: options.logLevel,
    ...options.env,
  };
  const child = spawnTypeScript(path.join(REPO_ROOT, 'launcher/src/main.ts'), [], {
    env,
    stdio: ['ignore', logFd, logFd],
    cpus: options.cpus,
    nodeArgs: options.nodeArgs,
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await stopChild(child);
      closeSync(logFd);
      if (!options.keep) await rm(dataDir, { recursive: true, force: true });
    })());

  const timeoutMs = options.startTimeoutMs ?? 180_000;
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (hasExited(child)) throw new Error(`the launcher exited with ${child.exitCode}:\n${tail(logFile)}`);
      const serviceUrls = await readyServices(gatewayUrl, options.services);
      if (serviceUrls) return { pid: child.pid as number, gatewayUrl, serviceUrls, dataDir, logFile, stop };
      await sleep(250);
    }
    throw new Error(`the launcher was not ready within ${timeoutMs / 1000} s:\n${tail(logFile)}`);
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The demo administrator the launcher seeds in demo mode (DEMO=true, DEMO_PASSWORD=demo1234 above). */
export const DEMO_ADMIN = { email: 'admin@demo.school', password: 'demo1234' };

/** Signs a demo account in through the gateway; resolves with the `district_session=…` cookie to send. */
export async function signInDemo(
  gatewayUrl: string,
  email: string,
  password = DEMO_ADMIN.password,
): Promise<string> {
  const res = await fetch(`${gatewayUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: gatewayUrl },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200)
    throw new Error(`sign-in through the gateway answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('district_session='));
  if (!cookie) throw new Error('sign-in set no district_session cookie');
  return cookie.split(';')[0];
}

/** Signs the demo administrator in through the gateway. */
export function signInDemoAdmin(gatewayUrl: string): Promise<string> {
  return signInDemo(gatewayUrl, DEMO_ADMIN.email);
}

/**
 * The URL of an up replica of each wanted service, once the gateway is ready; otherwise undefined. Replica
 * addresses are not in `/readyz` (they are internal); the gateway's `/metrics` has them, open on loopback.
 */
async function readyServices(
  gatewayUrl: string,
  wanted: readonly string[],
): Promise<Record<string, string> | undefined> {
  try {
    const ready = await fetch(`${gatewayUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
    if (ready.status !== 200) return undefined;
    const metrics = await fetch(`${gatewayUrl}/metrics`, { signal: AbortSignal.timeout(2000) });
    if (metrics.status !== 200) return undefined;
    return serviceUrlsOf(await metrics.text(), wanted);
  } catch {
    return undefined;
  }
}

/** Picks each wanted service's first replica that is up from the gateway's `gateway_upstream_up` series. */
export function serviceUrlsOf(
  metricsText: string,
  wanted: readonly string[],
): Record<string, string> | undefined {
  const up = new Map<string, string>();
  for (const [, service, replica] of metricsText.matchAll(
    /^gateway_upstream_up\{service="([^"]+)",replica="([^"]+)"\} 1$/gm,
  ))
    if (!up.has(service)) up.set(service, replica);
  const urls: Record<string, string> = {};
  for (const service of wanted) {
    const url = up.get(service);
    if (!url) return undefined;
    urls[service] = url;
  }
  return urls;
}

/**
 * The URL of the embedded PostgreSQL a launcher started in `dataDir` (launcher/src/embedded-database.ts: user
 * and password `postgres`, database `district`, a free port picked at each start). The port is the fourth
 * line of the server's postmaster.pid.
 */
export async function embeddedDatabaseUrl(dataDir: string): Promise<string> {
  const pidFile = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const port = Number(pidFile.split('\n')[3]);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`no port in ${dataDir}/postgres/postmaster.pid`);
  return `postgres://postgres:postgres@127.0.0.1:${port}/district`;
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
