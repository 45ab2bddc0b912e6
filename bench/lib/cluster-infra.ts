import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { SessionClaims } from '@district/contracts';
import { RedisEphemeralStore, SessionStateStore, TokenService } from '@district/nest-common';
import { freePort, hasExited, stopChild } from './child-processes';
import { pinnedCommand } from './cpu-pinning';

/**
 * The cluster topology's pieces for benchmarks that run services as separate processes (bench/chat,
 * bench/assessment): a Redis and a NATS of the run's own (never the shared ones), a throwaway database on the local
 * PostgreSQL, signing keys and sessions as identity would issue them, and the launcher started per target.
 */

/** `taskset -c cpus argv…`, or argv as it is when not pinning (cpu-pinning's pinnedCommand, as one argv). */
export function pin(cpus: string | undefined, argv: string[]): string[] {
  const { command, args } = pinnedCommand(argv[0], argv.slice(1), cpus);
  return [command, ...args];
}

/** Every process a run starts, so that an interrupted run stops them all. */
export class ProcessTracker {
  readonly live = new Set<ChildProcess>();
  readonly redisStops = new Set<() => void>();

  track(child: ChildProcess): ChildProcess {
    this.live.add(child);
    child.once('exit', () => this.live.delete(child));
    return child;
  }

  async stopAll(): Promise<void> {
    for (const child of [...this.live]) await stopChild(child, 5000).catch(() => undefined);
    for (const stop of [...this.redisStops]) stop();
  }
}

export function waitPort(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const once = () => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve();
      });
      s.on('error', () => {
        s.destroy();
        if (Date.now() > deadline) reject(new Error(`port ${port} not open within ${ms} ms`));
        else setTimeout(once, 100);
      });
    };
    once();
  });
}

export function tailOf(file: string | undefined, lines = 15): string {
  if (!file) return '';
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export async function waitHttp(
  url: string,
  ok: (status: number, body: string) => boolean,
  ms: number,
  child?: ChildProcess,
  log?: string,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child && hasExited(child))
      throw new Error(`${url}: the process exited (${child.exitCode}); log ${log ?? '-'}:\n${tailOf(log)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (ok(res.status, await res.text())) return;
    } catch {
      // not yet
    }
    await sleep(200);
  }
  throw new Error(`${url} not ready within ${ms} ms; log ${log ?? '-'}:\n${tailOf(log)}`);
}

export interface Redis {
  port: number;
  /** The running server's pid (a new one after `start`). */
  pid: number;
  url: string;
  stop(): void;
  /** Starts it again on the same port (empty: nothing is kept on disk), after `stop` (bench/faults). */
  start(): Promise<void>;
}

/** A Redis of the run's own in `scratch`, nothing kept on disk, on `cpus`. */
export async function startRedis(
  tracker: ProcessTracker,
  scratch: string,
  cpus: string | undefined,
): Promise<Redis> {
  const port = await freePort();
  const dir = path.join(scratch, `redis-${port}`);
  mkdirSync(dir, { recursive: true });
  const argv = pin(cpus, ['redis-server']);
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'yes',
    '--dir',
    dir,
  ];
  const redis: Redis = {
    port,
    pid: 0,
    url: `redis://127.0.0.1:${port}`,
    stop: () => (tracker.redisStops.delete(stop), stop()),
    start: async () => {
      const r = spawnSync(
        argv[0],
        [
          ...argv.slice(1),
          ...args,
          '--pidfile',
          path.join(dir, 'redis.pid'),
          '--logfile',
          path.join(dir, 'redis.log'),
        ],
        { encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`redis-server failed: ${r.stderr}`);
      for (let i = 0; i < 100; i++) {
        const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
        if (ping.stdout.trim() === 'PONG') break;
        await sleep(50);
      }
      redis.pid = Number(readFileSync(path.join(dir, 'redis.pid'), 'utf8').trim());
      tracker.redisStops.add(stop);
    },
  };
  const stop = () => {
    spawnSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { encoding: 'utf8', timeout: 5000 });
    try {
      process.kill(redis.pid, 0);
      process.kill(redis.pid, 'SIGKILL');
    } catch {
      // gone
    }
  };
  await redis.start();
  return redis;
}

export interface Nats {
  url: string;
  port: number;
  pid?: number;
  stop(): Promise<void>;
  /** Starts it again on the same port and JetStream store, after `stop` (bench/faults). */
  start(): Promise<void>;
}

/** A NATS server with JetStream in `scratch`, on `cpus`. */
export async function startNats(
  tracker: ProcessTracker,
  scratch: string,
  cpus: string | undefined,
): Promise<Nats> {
  const port = await freePort();
  const argv = pin(cpus, ['nats-server']);
  let child: ChildProcess | undefined;
  const nats: Nats = {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child) await stopChild(child, 5000);
    },
    start: async () => {
      child = tracker.track(
        spawn(
          argv[0],
          [...argv.slice(1), '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', path.join(scratch, 'nats')],
          { stdio: 'ignore' },
        ),
      );
      nats.pid = child.pid;
      await waitPort(port, 10_000);
    },
  };
  await nats.start();
  return nats;
}

const ADMIN_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database on the local PostgreSQL (127.0.0.1:5432, trust) for one run; `drop` removes it. */
export async function createThrowawayDatabase(
  prefix: string,
  progress: (m: string) => void,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    async drop() {
      const c = new Client({ connectionString: ADMIN_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      progress(`dropped database ${name}`);
    },
  };
}

/** A fresh signing key pair (identity's kind: ES256) and a signer for sessions as identity issues them. */
export function sessionSigner(): {
  publicKeyPem: string;
  sign(claims: Omit<SessionClaims, 'sid' | 'sst'>): Promise<string>;
} {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const tokens = new TokenService({ publicKeyPem, privateKeyPem });
  return { publicKeyPem, sign: async (claims) => (await tokens.sign(claims)).token };
}

/** Identity's part of the session state in a fresh Redis: the restored marker and every user's token version 1. */
export async function writeSessions(redisUrl: string, userIds: string[]): Promise<void> {
  const store = new RedisEphemeralStore(redisUrl);
  const state = new SessionStateStore(store);
  for (let i = 0; i < userIds.length; i += 5000)
    await state.warm(Object.fromEntries(userIds.slice(i, i + 5000).map((id) => [id, 1])));
  await state.markRestored();
  await store.close();
}
