import { readFileSync, readdirSync } from 'node:fs';
import { processTicks } from '../lib/process-cpu';

/**
 * CPU time of each process of the morning's site, sampled at the steps' edges from /proc (issue #38 item 2 asks for
 * CPU seconds per session of each process). The cluster's members are found as its children with a TARGET in their
 * environment (as bench/faults does). PostgreSQL is the machine's: its whole server is counted (the postmaster with
 * the backends it has reaped, and every live one), which includes anyone else's queries meanwhile. The live
 * backends of this run's database alone cannot be told apart: their sum drops whenever a pool closes an idle one.
 */
export type CpuSample = Record<string, number>;

/** The machine's whole PostgreSQL server, shared with whatever else uses it meanwhile (other engineers' tests). */
const SERVER = 'postgres (whole server, shared)';

function environOf(pid: string): Record<string, string> {
  try {
    return Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  } catch {
    return {};
  }
}

export interface SampleTargets {
  clusterPid: number;
  redisPid: number;
  natsPid?: number;
}

/** Clock ticks of every process of the site now, by name (`chat@4103`, `gateway`, `redis`, `postgres`…). */
export function sampleCpu(t: SampleTargets): CpuSample {
  const sample: CpuSample = {};
  const add = (name: string, ticks: number | undefined) => {
    if (ticks !== undefined) sample[name] = (sample[name] ?? 0) + ticks;
  };
  add('cluster supervisor', processTicks(t.clusterPid)?.own);
  add('redis', processTicks(t.redisPid)?.own);
  if (t.natsPid) add('nats', processTicks(t.natsPid)?.own);
  add('load generator', processTicks('self')?.own);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processTicks(Number(entry));
    if (!stat) continue;
    if (stat.ppid === t.clusterPid) {
      const env = environOf(entry);
      if (env.TARGET) add(env.TARGET === 'gateway' ? 'gateway' : `${env.TARGET}@${env.PORT}`, stat.own);
      continue;
    }
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.startsWith('postgres: ')) {
        add(SERVER, stat.own);
      } else if (/^\S*\/postgres\s/.test(cmdline)) {
        // The postmaster: with the time of the backends it has reaped (pools close idle connections).
        add(SERVER, stat.own + stat.reapedChildren);
      }
    } catch {
      // gone meanwhile
    }
  }
  return sample;
}

/**
 * CPU seconds each process spent between two samples, and the total per service (`chat@4103` and `chat@4104` add up
 * under `chat`). A process missing from `before` (a new backend), or with fewer ticks than before (restarted on the same port), counts
 * from zero.
 */
export function cpuBetween(
  before: CpuSample,
  after: CpuSample,
  ticksPerSecond: number,
): { processes: Record<string, number>; services: Record<string, number> } {
  const processes: Record<string, number> = {};
  const services: Record<string, number> = {};
  for (const [name, ticks] of Object.entries(after)) {
    const earlier = before[name] ?? 0;
    const seconds = (ticks >= earlier ? ticks - earlier : ticks) / ticksPerSecond;
    processes[name] = Math.round(seconds * 100) / 100;
    const service = name.replace(/@\d+$/, '');
    services[service] = Math.round(((services[service] ?? 0) + seconds) * 100) / 100;
  }
  return { processes, services };
}
