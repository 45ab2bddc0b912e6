import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PORT_TAKEN_EXIT_CODE, createLogger, freeClusterBase } from '@district/nest-common';
import { loadOrCreateKeys } from './keys';
import { nodeFlagsFor } from './node-flags';
import { SERVICES } from './targets';

/**
 * `npm run start:cluster`: the distributed topology on one machine. Every service replica is its own OS
 * process (`--target=<service>`) against real PostgreSQL, NATS and Redis, with the gateway in front
 * balancing across replicas. Replica counts come from <SERVICE>_REPLICAS (default 1).
 */
const logger = createLogger('cluster', process.env.LOG_LEVEL);
const root = path.resolve(__dirname, '../..');

interface Member {
  name: string;
  env: NodeJS.ProcessEnv;
  /** The service's declared node flags (node-flags.ts), on its command line. */
  nodeFlags: string[];
  child?: ChildProcess;
  restarts: number;
}

async function main(): Promise<void> {
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, '.data'), 'cluster');
  mkdirSync(dataDir, { recursive: true });
  const keys = await loadOrCreateKeys(process.env, dataDir);
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    DATA_DIR: dataDir,
    AUTH_PUBLIC_KEY: keys.publicKeyPem,
  };
  const members: Member[] = [];
  const upstreams: Record<string, string[]> = {};
  const replicasOf = (name: string) =>
    Math.max(1, Number(process.env[`${name.toUpperCase()}_REPLICAS`] ?? 1));
  // Members listen on base+1, base+2, … (CLUSTER_BASE_PORT: 4100 when unset, or auto), checked free first.
  let port: number;
  try {
    port = await freeClusterBase(
      process.env.CLUSTER_BASE_PORT,
      SERVICES.reduce((n, s) => n + replicasOf(s.name), 0),
    );
  } catch (error) {
    logger.fatal({ err: error }, error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  for (const service of SERVICES) {
    const replicas = replicasOf(service.name);
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
