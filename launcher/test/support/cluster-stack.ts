import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, runTs, stopProcess, waitFor } from './processes';

/** The gateway's /readyz: available and total replicas per service. */
export interface ReadyBody {
  services: Record<string, { available: number; total: number }>;
}

export interface ClusterStack {
  gateway: string;
  databaseUrl: string;
  /** The stack's own NATS (see startClusterStack). */
  natsUrl: string;
  dataDir: string;
  child: ChildProcess;
  /** The cluster's output so far (for failures). */
  output: string[];
  stop(): Promise<void>;
}

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A NATS server with JetStream for one stack. The services' stream and durable consumers have fixed names, so two
 * stacks on one NATS (these specs run in parallel workers, beside the fuzz suite's site) would share the durables
 * and take each other's events: a deletion made in one stack then removed grades in the other.
 */
export async function startPrivateNats(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const binary =
    process.env.NATS_SERVER_BIN ??
    (existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');
  const port = await freePort();
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', path.join(dir, 'nats')], {
    stdio: 'ignore',
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const open = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  try {
    await waitFor(open, `nats-server on port ${port}`, 15_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `nats://127.0.0.1:${port}`, stop };
}

/**
 * `launcher/src/cluster.ts` (every service its own OS process, the gateway in front) against this machine's
 * PostgreSQL — in a database of its own, dropped by stop() — a NATS server of its own and the machine's Redis, with the bootstrap admin `admin` and
 * `env` (replica counts, …); resolves once `ready` holds for the gateway's /readyz.
 */
export async function startClusterStack(options: {
  name: string;
  admin: { email: string; password: string };
  env?: Record<string, string>;
  ready: (body: ReadyBody) => boolean;
  waitingFor: string;
}): Promise<ClusterStack> {
  const database = `district_${options.name}_${Date.now().toString(36)}`;
  const databaseUrl = (() => {
    const u = new URL(adminUrl);
    u.pathname = `/${database}`;
    return u.toString();
  })();
  const withAdmin = async (sql: string) => {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await withAdmin(`CREATE DATABASE "${database}"`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `district-${options.name}-`));
  // As root the embedded PostgreSQL runs as `postgres`; the cluster keeps its keys here too.
  await chmod(dataDir, 0o755);
  const nats = await startPrivateNats(dataDir);
  const gatewayPort = await freePort();
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  const output: string[] = [];
  const child = runTs(
    'launcher/src/cluster.ts',
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(gatewayPort),
      PUBLIC_URL: gateway,
      CLUSTER_BASE_PORT: 'auto',
      ADMIN_EMAIL: options.admin.email,
      ADMIN_PASSWORD: options.admin.password,
      DEMO: '',
      NATS_URL: nats.url,
      ...options.env,
    },
    output,
  );
  const stop = async () => {
    await stopProcess(child);
    await nats.stop();
    await withAdmin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => options.ready((await (await fetch(`${gateway}/readyz`)).json()) as ReadyBody),
      options.waitingFor,
      150_000,
      output,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { gateway, databaseUrl, natsUrl: nats.url, dataDir, child, output, stop };
}
