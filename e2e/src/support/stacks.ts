import { chmod, cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startAudioStandIn, type AudioStandIn } from './audio-standin';
import { registerCleanup } from './cleanup';
import { freePort, runTs, stopServer, waitFor, type ServerProcess } from './processes';

export type Topology = 'standalone' | 'cluster';
export const TOPOLOGIES: readonly Topology[] = ['standalone', 'cluster'];

export interface Stack {
  topology: Topology;
  /** The origin the site must be browsed at: the gateway refuses state-changing requests from any other. */
  baseUrl: string;
  logFile: string;
  startMs: number;
  /** Null while the server runs; otherwise how it ended and the end of its output. */
  exited(): string | null;
  /** The local stand-in for a cloud-storage host, reachable only through the audio proxy of this stack. */
  audioStandIn: AudioStandIn;
  stop(): Promise<void>;
}

function exitReport(server: ServerProcess | undefined): string | null {
  if (!server || (server.child.exitCode === null && server.child.signalCode === null)) return null;
  return `the server process ended (code ${server.child.exitCode}, signal ${server.child.signalCode}); end of its output:\n${server.tail.text().slice(-3000)}`;
}

const BUILT_WEB = path.resolve(__dirname, '../../../web/dist');

/**
 * The servers serve a copy of web/dist taken when the suite starts, so a rebuild during the run (another
 * `npm start`, a developer's build) cannot pull the hashed chunks from under pages that are open.
 */
export async function snapshotWebDist(): Promise<{ dir: string; remove(): Promise<void> }> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'district-e2e-web-'));
  const dir = path.join(parent, 'dist');
  await cp(BUILT_WEB, dir, { recursive: true });
  await chmod(parent, 0o755);
  return { dir, remove: registerCleanup(() => rm(parent, { recursive: true, force: true })) };
}

/** A fresh DATA_DIR; mkdtemp makes it private, and as root the embedded PostgreSQL runs as `postgres` and must enter it. */
async function freshDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

/** `npm start`: every service in one process, embedded PostgreSQL, in-process bus and store, demo accounts seeded. */
export async function startStandalone(artifacts: string, webDist: string): Promise<Stack> {
  const started = Date.now();
  const dataDir = await freshDataDir('district-e2e-standalone-');
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const logFile = path.join(artifacts, 'standalone-server.log');
  let server: ServerProcess | undefined;
  const audioStandIn = await startAudioStandIn();
  const stop = registerCleanup(async () => {
    await stopServer(server);
    await audioStandIn.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  try {
    server = runTs(
      'launcher/src/main.ts',
      {
        DATA_DIR: dataDir,
        PORT: String(port),
        TARGET: '',
        DATABASE_URL: '',
        NATS_URL: '',
        REDIS_URL: '',
        PUBLIC_URL: '',
        DEMO: '',
        WEB_DIST: webDist,
        ...audioStandIn.env,
      },
      logFile,
      [audioStandIn.preload],
    );
    const s = server;
    await waitFor(
      async () => (await fetch(`${baseUrl}/readyz`)).status === 200,
      'the standalone site',
      120_000,
      s,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    topology: 'standalone',
    baseUrl,
    logFile,
    startMs: Date.now() - started,
    exited: () => exitReport(server),
    audioStandIn,
    stop,
  };
}

interface ReadyBody {
  services?: Record<string, { available: number }>;
}

/** The server the cluster's database is created on (the house default unless DATABASE_URL says otherwise). */
const adminDatabaseUrl = () => process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function withAdminClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * `npm run start:cluster`: identity, content, chat and assessment with two replicas each, each its own process, and the gateway in front, against a
 * database created for this run on the local PostgreSQL (dropped afterwards), the local NATS and Redis.
 */
export async function startCluster(artifacts: string, webDist: string, runId: string): Promise<Stack> {
  const started = Date.now();
  const database = `district_e2e_${runId}`;
  const databaseUrl = (() => {
    const u = new URL(adminDatabaseUrl());
    u.pathname = `/${database}`;
    return u.toString();
  })();
  const dataDir = await freshDataDir('district-e2e-cluster-');
  const port = await freePort();
  // The gateway accepts state-changing requests only from PUBLIC_URL, so the browser uses exactly this origin.
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(artifacts, 'cluster-server.log');
  let server: ServerProcess | undefined;
  const audioStandIn = await startAudioStandIn();
  const stop = registerCleanup(async () => {
    await stopServer(server);
    await audioStandIn.close();
    await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    await rm(dataDir, { recursive: true, force: true });
  });
  try {
    await withAdminClient((c) => c.query(`CREATE DATABASE "${database}"`));
    server = runTs(
      'launcher/src/cluster.ts',
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        PORT: String(port),
        PUBLIC_URL: baseUrl,
        CLUSTER_BASE_PORT: 'auto',
        IDENTITY_REPLICAS: '2',
        CONTENT_REPLICAS: '2',
        CHAT_REPLICAS: '2',
        ASSESSMENT_REPLICAS: '2',
        WEB_DIST: webDist,
        DEMO: 'true',
        TARGET: '',
        NATS_URL: process.env.NATS_URL || 'nats://127.0.0.1:4222',
        REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        ...audioStandIn.env,
      },
      logFile,
      [audioStandIn.preload],
    );
    const s = server;
    await waitFor(
      async () => {
        const services = ((await (await fetch(`${baseUrl}/readyz`)).json()) as ReadyBody).services;
        return (
          services?.identity?.available === 2 &&
          services?.chat?.available === 2 &&
          services?.assessment?.available === 2
        );
      },
      'the gateway and both replicas of identity, chat and assessment',
      150_000,
      s,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    topology: 'cluster',
    baseUrl,
    logFile,
    startMs: Date.now() - started,
    exited: () => exitReport(server),
    audioStandIn,
    stop,
  };
}

export function startStack(
  topology: Topology,
  artifacts: string,
  webDist: string,
  runId: string,
): Promise<Stack> {
  return topology === 'standalone'
    ? startStandalone(artifacts, webDist)
    : startCluster(artifacts, webDist, runId);
}
