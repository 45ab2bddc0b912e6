import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  kernel: string;
}

/** The machine, and the version of the Node binary the servers run on (this script's own unless `node` is given). */
export function describeMachine(node: string = process.execPath): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: node === process.execPath ? process.version : (toolVersion(node) ?? `unknown (${node})`),
    os: `${os.type()} ${os.arch()}`,
    kernel: os.release(),
  };
}

/** 1, 5 and 15 minute load averages, rounded to what `uptime` shows. */
export function loadAverage(): [number, number, number] {
  const [a, b, c] = os.loadavg().map((v) => Math.round(v * 100) / 100);
  return [a, b, c];
}

/** How many times the kernel counts CPU time per second (/proc figures are in these ticks). */
export function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/** The version line a tool prints, e.g. `wrk 4.1.0`; undefined when the tool is not installed. */
export function toolVersion(command: string, args: string[] = ['--version']): string | undefined {
  try {
    const out = execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.split('\n')[0].trim();
  } catch (error) {
    // wrk prints its version and usage, then exits 1: the text is still there.
    const stdout = (error as { stdout?: string }).stdout;
    if (typeof stdout === 'string' && stdout.trim() !== '') return stdout.split('\n')[0].trim();
    return undefined;
  }
}
