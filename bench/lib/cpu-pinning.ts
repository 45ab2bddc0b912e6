import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { toolVersion } from './machine-info';

/**
 * How a run placed its processes on CPUs, as its JSON records it: the servers (the launcher and everything it
 * starts, the bare server, any proxy) on one CPU, the load generator (wrk, and this script where the undici
 * clients run) on another, so that neither takes the other's CPU. Older runs have no such record.
 */
export interface Pinning {
  pinned: boolean;
  /** CPU list (taskset's -c syntax) of every server process, when pinned. */
  serverCpus?: string;
  /** CPU list of the load generator and of the bench script, when pinned. */
  loadCpus?: string;
  /** Why nothing was pinned. */
  reason?: string;
}

/** What the plan depends on, so that specs can give it without the machine's answer. */
export interface PinningProbe {
  tasksetInstalled: boolean;
  /** The CPUs this process may run on, ascending. */
  allowedCpus: readonly number[];
}

/** `0-2,4` → [0, 1, 2, 4]: the kernel's CPU list syntax (/proc/<pid>/status, taskset -c). */
export function parseCpuList(list: string): number[] {
  const cpus = new Set<number>();
  for (const part of list.trim().split(',')) {
    if (part === '') continue;
    const [from, to = from] = part.split('-').map((n) => Number(n));
    if (!Number.isInteger(from) || !Number.isInteger(to) || to < from)
      throw new Error(`not a CPU list: "${list}"`);
    for (let cpu = from; cpu <= to; cpu++) cpus.add(cpu);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** The CPUs this process may run on (its affinity and cpuset), from /proc; every CPU Node sees otherwise. */
export function allowedCpus(): number[] {
  try {
    const line = readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Cpus_allowed_list:'));
    if (line) return parseCpuList(line.slice('Cpus_allowed_list:'.length));
  } catch {
    // Not Linux: fall through.
  }
  return Array.from({ length: os.availableParallelism() }, (_, i) => i);
}

export function systemPinningProbe(): PinningProbe {
  // taskset has no --version exit code worth trusting across versions; -V prints "taskset from util-linux …".
  return { tasksetInstalled: toolVersion('taskset', ['-V']) !== undefined, allowedCpus: allowedCpus() };
}

/**
 * Where the processes go: the load generator on the first CPU this process may use (0 on most machines), the
 * servers on the second (1). Nothing is pinned with --no-pin, without taskset, or with a single CPU.
 * Call it before pinning this process, which narrows what it may use.
 */
export function planPinning(pin: boolean, probe: PinningProbe = systemPinningProbe()): Pinning {
  if (!pin) return { pinned: false, reason: 'turned off with --no-pin' };
  if (!probe.tasksetInstalled)
    return { pinned: false, reason: 'taskset is not installed (it is in util-linux)' };
  if (probe.allowedCpus.length < 2) {
    return {
      pinned: false,
      reason: `only one CPU (${probe.allowedCpus.join(',') || 'none'}) is available to the benchmark`,
    };
  }
  const [load, server] = probe.allowedCpus;
  return { pinned: true, serverCpus: String(server), loadCpus: String(load) };
}

/** `command args` as it runs on `cpus`: `taskset -c <cpus> command args`, or unchanged without CPUs. */
export function pinnedCommand(
  command: string,
  args: readonly string[],
  cpus: string | undefined,
): { command: string; args: string[] } {
  if (cpus === undefined) return { command, args: [...args] };
  // taskset sets the affinity and execs the command: the child's pid is the command's own.
  return { command: 'taskset', args: ['-c', cpus, command, ...args] };
}

/** The command that pins a running process and every thread it has to `cpus`. */
export function pinProcessCommand(pid: number, cpus: string): { command: string; args: string[] } {
  return { command: 'taskset', args: ['-a', '-pc', cpus, String(pid)] };
}

/** Pins a running process (all its threads; threads and children it starts later inherit it) to `cpus`. */
export function pinProcess(pid: number, cpus: string): void {
  const { command, args } = pinProcessCommand(pid, cpus);
  execFileSync(command, args, { stdio: 'ignore' });
}

/**
 * Pins this script to the load generator's CPU when the plan pins: the undici clients run in it, and wrk,
 * started under `taskset -c` too, waits beside it. Returns a line for the progress log.
 */
export function pinBenchScript(pinning: Pinning): string {
  if (!pinning.pinned || pinning.loadCpus === undefined || pinning.serverCpus === undefined) {
    return `not pinning processes to CPUs: ${pinning.reason ?? 'no plan'}`;
  }
  pinProcess(process.pid, pinning.loadCpus);
  return `servers on CPU ${pinning.serverCpus} (taskset -c ${pinning.serverCpus}), load generator and this script on CPU ${pinning.loadCpus}`;
}

/** What the report's machine section says about pinning; a run recorded before pinning existed says so. */
export function describePinning(pinning: Pinning | undefined): string {
  if (!pinning) return 'not recorded (this run predates the record)';
  if (!pinning.pinned) return `not pinned: ${pinning.reason ?? 'no reason recorded'}`;
  return (
    `servers on CPU ${pinning.serverCpus} (\`taskset -c ${pinning.serverCpus}\`: the launcher and everything it starts, the bare server, ` +
    `any proxy); load generator on CPU ${pinning.loadCpus} (\`taskset -c ${pinning.loadCpus} wrk\`; the bench script, which runs the ` +
    `undici clients, \`taskset -a -pc ${pinning.loadCpus}\`)`
  );
}
