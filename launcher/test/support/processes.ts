import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');

/** Runs a TypeScript entry point the way `npm start` does (swc-node), in its own process. */
export function runTs(entry: string, env: NodeJS.ProcessEnv, output: string[] = []): ChildProcess {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', entry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SWC_NODE_PROJECT: path.join(repoRoot, 'tsconfig.runtime.json'),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (process.env.TEST_VERBOSE) process.stderr.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  ms = 90_000,
  output?: string[],
): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `timed out waiting for ${what}${output ? `\n--- output ---\n${output.join('').slice(-4000)}` : ''}`,
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts an entry point on a port `freePort` found, and waits until `ready(base)` answers while that child is still
 * running. The port is free when found but not reserved: a process started meanwhile (another spec's, under parallel
 * workers) may take it, and then the child stops (ADR 0029) while `/readyz` is answered by the stranger. A child that
 * exits before it is ready is started again on another port.
 */
export async function startOnFreePort(
  entry: string,
  env: (port: number) => NodeJS.ProcessEnv,
  output: string[],
  ready: (base: string) => Promise<boolean>,
  { ms = 120_000, host = '127.0.0.1' }: { ms?: number; host?: string } = {},
): Promise<{ child: ChildProcess; port: number; base: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const base = `http://${host}:${port}`;
    const child = runTs(entry, env(port), output);
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    await waitFor(async () => exited() || (await ready(base)), `${entry} on port ${port}`, ms, output);
    if (!exited()) return { child, port, base };
    if (attempt === 3)
      throw new Error(`${entry} exited before it was ready, three times:\n${output.join('').slice(-4000)}`);
  }
}

export const jsonRequest = (origin: string, method: string, body: unknown, cookie?: string): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});

export const cookieOf = (res: Response): string => res.headers.get('set-cookie')?.split(';')[0] ?? '';

/**
 * The accept queue the kernel gives the socket listening on `port` (on Linux, `ss`'s Send-Q column of a listening
 * socket), and the largest it would give any (`net.core.somaxconn`).
 */
export function listenBacklogOf(port: number): { backlog: number; somaxconn: number } {
  const ss = spawnSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' });
  if (ss.status !== 0) throw new Error(`ss failed: ${ss.error?.message ?? ss.stderr}`);
  const line = ss.stdout.split('\n').find((l) => l.startsWith('LISTEN'));
  if (!line) throw new Error(`nothing listens on port ${port}:\n${ss.stdout}`);
  return {
    backlog: Number(line.trim().split(/\s+/)[2]),
    somaxconn: Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8')),
  };
}
