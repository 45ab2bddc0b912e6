import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PORT_TAKEN_EXIT_CODE, createLogger, freeClusterBase } from '@district/nest-common';
import { clusterConfig, replicasOf } from './cluster.config';
import { loadOrCreateKeys } from './keys';
import { launcherConfig } from './launcher.config';
import { nodeFlagsFor } from './node-flags';
import { SERVICES, serviceNames } from './targets';

/**
 * `npm run start:cluster`: the distributed topology on one machine. Every service replica is its own OS
 * process (`--target=<service>`) against real PostgreSQL, NATS and Redis, with the gateway in front
 * balancing across replicas. Replica counts come from <SERVICE>_REPLICAS (default 1).
 */
const root = path.resolve(__dirname, '../..');
// The cluster's variables and the launcher's it shares (DATA_DIR, LOG_LEVEL, the datastores), read once: a bad value
// stops the cluster before any member starts, with the list of every problem.
const settings = readSettings();
const logger = createLogger('cluster', settings.launcher.LOG_LEVEL);

function readSettings() {
  const context = { services: serviceNames() };
  try {
    return {
      launcher: launcherConfig.values(process.env, context),
      cluster: clusterConfig.load(process.env, context),
    };
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

interface Member {
  name: string;
  env: NodeJS.ProcessEnv;
  /** The service's declared node flags (node-flags.ts), on its command line. */
  nodeFlags: string[];
  child?: ChildProcess;
  restarts: number;
}

async function main(): Promise<void> {
  const { launcher, cluster } = settings;
  const dataDir = path.resolve(root, launcher.DATA_DIR, 'cluster');
  mkdirSync(dataDir, { recursive: true });
  const keys = await loadOrCreateKeys(process.env, dataDir);
  const shared: NodeJS.ProcessEnv = {
    // Handed on whole: each member reads its own variables with its own schemas.
    ...process.env,
    // The cluster runs against the local servers unless told otherwise.
    DATABASE_URL: launcher.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    NATS_URL: launcher.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: launcher.REDIS_URL ?? 'redis://127.0.0.1:6379',
    DATA_DIR: dataDir,
    AUTH_PUBLIC_KEY: keys.publicKeyPem,
  };
  const members: Member[] = [];
  const upstreams: Record<string, string[]> = {};
  // Members listen on base+1, base+2, … (CLUSTER_BASE_PORT: 4100 when unset, or auto), checked free first.
  let port: number;
  try {
    port = await freeClusterBase(
      cluster.CLUSTER_BASE_PORT,
      SERVICES.reduce((n, s) => n + replicasOf(cluster, s.name), 0),
    );
  } catch (error) {
    logger.fatal({ err: error }, error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  for (const service of SERVICES) {
    const replicas = replicasOf(cluster, service.name);
    for (let i = 0; i < replicas; i++) {
      port += 1;
      const env: NodeJS.ProcessEnv = {
        ...shared,
        TARGET: service.name,
        PORT: String(port),
        HOST: '127.0.0.1',
      };
      if (service.name === 'identity') env.AUTH_PRIVATE_KEY = keys.privateKeyPem;
      members.push({
        name: `${service.name}-${i + 1}`,
        env,
        nodeFlags: nodeFlagsFor([service.name]),
        restarts: 0,
      });
      (upstreams[service.name] ??= []).push(`http://127.0.0.1:${port}`);
    }
  }
  const gatewayEnv: NodeJS.ProcessEnv = { ...shared, TARGET: 'gateway' };
  for (const [name, urls] of Object.entries(upstreams))
    gatewayEnv[`UPSTREAM_${name.toUpperCase()}`] = urls.join(',');
  members.push({ name: 'gateway', env: gatewayEnv, nodeFlags: [], restarts: 0 });

  let stopping = false;
  const start = (member: Member) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, ...member.nodeFlags, path.join(__dirname, 'main.ts')],
      {
        cwd: root,
        env: member.env,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    member.child = child;
    child.on('exit', (code, signal) => {
      if (stopping) return;
      if (code === PORT_TAKEN_EXIT_CODE) {
        // Restarting it would not free the port, and the gateway would go on sending its traffic to whoever holds it.
        logger.fatal(
          { member: member.name, port: member.env.PORT },
          'port taken by another program: stopping the cluster (set CLUSTER_BASE_PORT to another base, or to auto)',
        );
        void shutdown(1);
        return;
      }
      logger.warn({ member: member.name, code, signal }, 'process exited; restarting');
      member.restarts += 1;
      setTimeout(() => start(member), Math.min(10000, 500 * 2 ** Math.min(member.restarts, 5)));
    });
    logger.info({ member: member.name, pid: child.pid, port: member.env.PORT }, 'started');
  };
  for (const member of members) start(member);

  const shutdown = async (exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    const stopMember = (member: Member) =>
      new Promise<void>((resolve) => {
        const child = member.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    // The gateway first; then every service at once (each drains for SHUTDOWN_DRAIN_MS, in parallel).
    const gateway = members.filter((m) => m.name === 'gateway');
    await Promise.all(gateway.map(stopMember));
    await Promise.all(members.filter((m) => m.name !== 'gateway').map(stopMember));
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

void main();
