import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');

/** The last part of a process's output, kept in memory so a failed start can say why. */
export class OutputTail {
  private chunks: string[] = [];
  private size = 0;

  constructor(private readonly limit = 16_000) {}

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
  }

  text(): string {
    return this.chunks.join('').slice(-this.limit);
  }
}

export interface ServerProcess {
  child: ChildProcess;
  tail: OutputTail;
  logFile: string;
}

/**
 * Runs a TypeScript entry point the way `npm start` does (swc-node) in a process group of its own, so the
 * whole tree (the cluster supervisor and its replicas) can be stopped by its id even if the leader hangs.
 * Output goes to `logFile` (kept with the artifacts) and to an in-memory tail.
 */
export function runTs(
  entry: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
  preloads: readonly string[] = [],
): ServerProcess {
  // Preloads come after the TypeScript hook; the cluster launcher passes its exec arguments (these included) to
  // every process it starts.
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', ...preloads.flatMap((p) => ['-r', p]), entry],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: path.join(repoRoot, 'tsconfig.runtime.json'),
        LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const tail = new OutputTail();
  const log = createWriteStream(logFile, { flags: 'w' });
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString());
    log.write(chunk);
    if (process.env.E2E_VERBOSE) process.stderr.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', (code, signal) => {
    const line = `\n[e2e] ${entry} exited (code ${code}, signal ${signal}) at ${new Date().toISOString()}\n`;
    tail.push(line);
    log.end(line);
  });
  return { child, tail, logFile };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the leader (it shuts its members down in order), then SIGKILL to whatever is left of its group. */
export async function stopServer(server: ServerProcess | undefined, graceMs = 20_000): Promise<void> {
  if (!server) return;
  const { child } = server;
  const pid = child.pid;
  if (pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
        resolve();
      }, graceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
  // The leader is gone; a member that outlived it (it should not) must not keep a port or the database busy.
  for (let i = 0; i < 40 && groupAlive(pid); i++) await sleep(250);
  if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  ms: number,
  server?: ServerProcess,
): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server && server.child.exitCode !== null) {
      throw new Error(
        `${what}: the process exited with code ${server.child.exitCode}\n--- output ---\n${server.tail.text()}`,
      );
    }
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(
    `timed out after ${ms} ms waiting for ${what}${server ? `\n--- output ---\n${server.tail.text()}` : ''}`,
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
