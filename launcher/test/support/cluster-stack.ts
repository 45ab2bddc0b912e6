import type { ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
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
  dataDir: string;
  child: ChildProcess;
  /** The cluster's output so far (for failures). */
  output: string[];
  stop(): Promise<void>;
}

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * `launcher/src/cluster.ts` (every service its own OS process, the gateway in front) against this machine's
 * PostgreSQL — in a database of its own, dropped by stop() — NATS and Redis, with the bootstrap admin `admin` and
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
      CLUSTER_BASE_PORT: String(20000 + Math.floor(Math.random() * 20000)),
      ADMIN_EMAIL: options.admin.email,
      ADMIN_PASSWORD: options.admin.password,
      DEMO: '',
      ...options.env,
    },
    output,
  );
  const stop = async () => {
    await stopProcess(child);
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
  return { gateway, databaseUrl, dataDir, child, output, stop };
}
