import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT, freePort, spawnTypeScript, stopChild } from '../lib/child-processes';
import {
  ProcessTracker,
  createThrowawayDatabase,
  startNats,
  startRedis,
  waitHttp,
  type Nats,
  type Redis,
} from '../lib/cluster-infra';
import { SERVICES, type ServiceName } from '../faults/stack';
import { startAudioStandIn, type AudioStandIn } from './audio-standin';

/**
 * The school morning's site (issue #38): the cluster topology as `npm run start:cluster` runs it
 * (launcher/src/cluster.ts: every replica its own process behind the gateway), on a throwaway database of the
 * machine's PostgreSQL, with a Redis and a NATS of the run's own (bench/lib/cluster-infra.ts, as bench/faults does),
 * the built web app (a copy, so a rebuild during the run cannot pull its chunks away) and a stand-in audio host on
 * loopback reached through the e2e suite's preload (the only seam the audio proxy has for one: production refuses
 * loopback).
 */
export interface MorningStackOptions {
  replicas: Record<ServiceName, number>;
  /** taskset CPU list for the cluster, Redis and NATS (the machine's PostgreSQL cannot be pinned). */
  cpus?: string;
  admin: { email: string; password: string };
  logLevel: string;
  log: (line: string) => void;
  keep: boolean;
}

export class MorningStack {
  private constructor(
    readonly scratch: string,
    readonly gateway: string,
    readonly database: { name: string; url: string },
    readonly redis: Redis,
    readonly nats: Nats,
    readonly audio: AudioStandIn,
    readonly cluster: ChildProcess,
    readonly logFile: string,
    private readonly disposers: (() => Promise<void>)[],
  ) {}

  static async start(options: MorningStackOptions): Promise<MorningStack> {
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'district-morning-'));
    await chmod(scratch, 0o755);
    const disposers: (() => Promise<void>)[] = [];
    try {
      const db = await createThrowawayDatabase('bench_morning', options.log);
      if (!options.keep) disposers.push(() => db.drop());
      const tracker = new ProcessTracker();
      disposers.unshift(() => tracker.stopAll());
      const redis = await startRedis(tracker, scratch, options.cpus);
      const nats = await startNats(tracker, scratch, options.cpus);
      const audio = await startAudioStandIn();
      disposers.unshift(() => audio.close());
      const webDist = await copyWebDist(scratch);
      options.log(
        `database ${db.name} on 127.0.0.1:5432, Redis :${redis.port}, NATS :${nats.port}, audio stand-in :${audio.port}`,
      );
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
        WEB_DIST: webDist,
        CLUSTER_BASE_PORT: 'auto',
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        NATS_URL: nats.url,
        DEMO: 'false',
        ADMIN_EMAIL: options.admin.email,
        ADMIN_PASSWORD: options.admin.password,
        LOG_LEVEL: options.logLevel,
        // Every pupil comes from 127.0.0.1: the per-address limits meant for one school's router would refuse most
        // of a district's comments. The per-account limits stay as shipped.
        CONTENT_COMMENT_RATE_PER_ADDRESS: '1000000',
        ...audio.env,
        ...Object.fromEntries(
          SERVICES.map((s) => [`${s.toUpperCase()}_REPLICAS`, String(options.replicas[s])]),
        ),
      };
      // The cluster hands its own execArgv to every member, so the preload reaches the classroom replicas.
      const cluster = spawnTypeScript(path.join(REPO_ROOT, 'launcher/src/cluster.ts'), [], {
        env,
        stdio: ['ignore', logFd, logFd],
        cpus: options.cpus,
        nodeArgs: ['-r', audio.preload],
      });
      disposers.unshift(async () => {
        await stopChild(cluster, 30_000);
        closeSync(logFd);
      });
      const stack = new MorningStack(scratch, gateway, db, redis, nats, audio, cluster, logFile, disposers);
      await waitHttp(
        `${gateway}/readyz`,
        (status, body) =>
          status === 200 &&
          SERVICES.every(
            (s) =>
              (JSON.parse(body) as { services: Record<string, { available: number }> }).services[s]
                ?.available === options.replicas[s],
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

  async stop(): Promise<void> {
    for (const dispose of this.disposers) await dispose().catch(() => undefined);
    if (!this.keepScratch) await rm(this.scratch, { recursive: true, force: true });
  }

  keepScratch = false;
}

/**
 * A copy of web/dist taken now, checked whole (index.html and its assets): a build running meanwhile (another
 * engineer's `npm run build`) empties the folder for a few seconds, so a copy without index.html is taken again.
 */
async function copyWebDist(scratch: string): Promise<string> {
  const source = path.join(REPO_ROOT, 'web/dist');
  const target = path.join(scratch, 'web-dist');
  for (let attempt = 0; attempt < 30; attempt++) {
    await rm(target, { recursive: true, force: true });
    await cp(source, target, { recursive: true }).catch(() => undefined);
    const index = path.join(target, 'index.html');
    if (existsSync(index)) {
      const assets = [...readFileSync(index, 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map(
        (m) => m[1],
      );
      if (assets.length > 0 && assets.every((a) => existsSync(path.join(target, a)))) return target;
    }
    await sleep(2000);
  }
  throw new Error(`no complete web build in ${source} (index.html and its assets): run npm run build -w web`);
}

/** `chat=2,assessment=2` over one replica of every service. */
export function parseReplicas(text: string): Record<ServiceName, number> {
  const replicas = Object.fromEntries(SERVICES.map((s) => [s, 1])) as Record<ServiceName, number>;
  for (const part of text.split(',').filter(Boolean)) {
    const [name, count] = part.split('=');
    if (!(SERVICES as readonly string[]).includes(name) || !/^[1-9]\d*$/.test(count ?? ''))
      throw new Error(`--replicas: "${part}" is not service=count (services: ${SERVICES.join(', ')})`);
    replicas[name as ServiceName] = Number(count);
  }
  return replicas;
}
