import { spawn } from 'node:child_process';
import path from 'node:path';
import { pinnedCommand } from './cpu-pinning';
import type { Probe, ThroughputResult } from './load-client';

const REPORT_SCRIPT = path.join(__dirname, 'wrk-report.lua');
const MARKER = 'WRK_JSON ';

interface WrkSummary {
  requests: number;
  durationUs: number;
  bytes: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { mean: number; p50: number; p90: number; p99: number; max: number };
}

/** Turns the line wrk-report.lua prints into a result; throws when wrk printed none (it failed). */
export function parseWrkOutput(stdout: string, tool = 'wrk'): ThroughputResult {
  const line = stdout.split('\n').find((l) => l.startsWith(MARKER));
  if (!line) throw new Error(`wrk printed no summary:\n${stdout.slice(-2000)}`);
  const summary = JSON.parse(line.slice(MARKER.length)) as WrkSummary;
  const ms = (us: number) => Math.round(us) / 1000;
  const durationSeconds = summary.durationUs / 1e6;
  const { connect, read, write, timeout, status } = summary.errors;
  return {
    tool,
    durationSeconds,
    requests: summary.requests,
    reqPerSec: durationSeconds > 0 ? summary.requests / durationSeconds : 0,
    latencyMs: {
      mean: ms(summary.latencyUs.mean),
      p50: ms(summary.latencyUs.p50),
      p90: ms(summary.latencyUs.p90),
      p99: ms(summary.latencyUs.p99),
      max: ms(summary.latencyUs.max),
    },
    non2xx: status,
    errors: connect + read + write + timeout,
  };
}

/**
 * Runs wrk (one thread: on a small machine every core wrk does not take is one the servers can use) with a
 * fixed number of keep-alive connections for a fixed time, on `cpus` (taskset -c) when given.
 */
export function runWrk(
  probe: Probe,
  options: {
    connections: number;
    durationMs: number;
    threads?: number;
    timeoutMs?: number;
    tool?: string;
    cpus?: string;
  },
): Promise<ThroughputResult> {
  const args = [
    `-t${options.threads ?? 1}`,
    `-c${options.connections}`,
    `-d${Math.max(1, Math.round(options.durationMs / 1000))}s`,
    `--timeout`,
    `${Math.max(1, Math.round((options.timeoutMs ?? 10_000) / 1000))}s`,
    '-s',
    REPORT_SCRIPT,
  ];
  for (const [name, value] of Object.entries(probe.headers)) args.push('-H', `${name}: ${value}`);
  args.push(new URL(probe.path, probe.origin).toString());
  return new Promise((resolve, reject) => {
    const { command, args: argv } = pinnedCommand('wrk', args, options.cpus);
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`wrk exited with ${code}: ${stderr || stdout}`));
        return;
      }
      try {
        resolve(parseWrkOutput(stdout, options.tool));
      } catch (error) {
        reject(error);
      }
    });
  });
}
