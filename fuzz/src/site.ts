import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { Client } from 'pg';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface Site {
  url: string;
  /** The throwaway database the five services and their schemas live in. */
  databaseUrl: string;
  logFile: string;
  startMs: number;
  /** Null while the launcher runs; otherwise how it ended and the end of its log. */
  exited(): string | null;
  stop(): Promise<void>;
}

/**
 * The fuzzer's own logical Redis database, emptied before each run: thousands of refused sign-ins, registrations
 * and comments fill the rate-limit counters of 127.0.0.1 and of the demo accounts (whose ids are fixed), which
 * in the shared database 0 would throttle every other stack on this machine for the next hour, and a previous
 * run's counters would throttle this one.
 */
const FUZZ_REDIS_DB = 11;

function fuzzRedisUrl(): string {
  const url = new URL(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  url.pathname = `/${FUZZ_REDIS_DB}`;
  return url.toString();
}

async function emptyFuzzRedis(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: true });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

const adminDatabaseUrl = () => process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

function databaseUrlFor(database: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

async function onAdminDatabase(sql: string): Promise<void> {
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-4000);
  } catch {
    return '(no log)';
  }
}

/**
 * The whole site as `--target=all` runs it (the gateway and all five services in one process), but on the real
 * datastores: a database created for this run on the local PostgreSQL (dropped afterwards), the local NATS, and
 * the local Redis (in a logical database of its own, FUZZ_REDIS_DB). The launcher is a child process (the test project may only import contracts and the platform library),
 * started with an allow-listed environment so a developer's UPSTREAM_* or DEMO settings cannot change the topology.
 * Demo mode is on, so the four demo accounts exist.
 */
export async function startSite(): Promise<Site> {
  const started = Date.now();
  const database = `district_fuzz_${process.pid}_${Date.now().toString(36)}`;
  const databaseUrl = databaseUrlFor(database);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'district-fuzz-'));
  await chmod(dataDir, 0o755);
  const logFile = path.join(dataDir, 'launcher.log');
  const logFd = openSync(logFile, 'a');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const redisUrl = fuzzRedisUrl();
  await emptyFuzzRedis(redisUrl);
  await onAdminDatabase(`CREATE DATABASE "${database}"`);
  const child: ChildProcess = spawn(
    process.execPath,
    ['-r', '@swc-node/register', path.join(REPO_ROOT, 'launcher/src/main.ts')],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LANG: process.env.LANG,
        TMPDIR: process.env.TMPDIR,
        SWC_NODE_PROJECT: path.join(REPO_ROOT, 'tsconfig.runtime.json'),
        TARGET: 'all',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        WEB_DIST: path.join(dataDir, 'no-web-build'),
        DATABASE_URL: databaseUrl,
        NATS_URL: process.env.NATS_URL || 'nats://127.0.0.1:4222',
        REDIS_URL: redisUrl,
        DEMO: 'true',
        DEMO_PASSWORD: 'demo1234',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', logFd, logFd],
    },
  );
  const exited = () =>
    child.exitCode === null && child.signalCode === null
      ? null
      : `the launcher ended (code ${child.exitCode}, signal ${child.signalCode}):\n${tail(logFile)}`;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (!exited()) {
        const ended = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await ended;
        clearTimeout(timer);
      }
      closeSync(logFd);
      await onAdminDatabase(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
      await emptyFuzzRedis(redisUrl).catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    })());
  try {
    const deadline = Date.now() + 150_000;
    for (;;) {
      const ended = exited();
      if (ended) throw new Error(ended);
      if (Date.now() > deadline) throw new Error(`the site was not ready within 150 s:\n${tail(logFile)}`);
      const ready = await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) break;
      await sleep(250);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, databaseUrl, logFile, startMs: Date.now() - started, exited, stop };
}
