import { readFileSync, readdirSync } from 'node:fs';

/** CPU time of one process from /proc/<pid>/stat, in clock ticks. */
export interface ProcessTicks {
  ppid: number;
  /** user + system time of the process itself */
  own: number;
  /** user + system time of its children that have exited and been waited for */
  reapedChildren: number;
}

/**
 * Parses a /proc/<pid>/stat line. The command name (field 2) is in parentheses and may itself contain
 * spaces or parentheses, so fields are counted from the last ')'.
 */
export function parseProcStat(line: string): ProcessTicks {
  const close = line.lastIndexOf(')');
  if (close === -1) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  // fields[0] is field 3 (state); utime is field 14, stime 15, cutime 16, cstime 17.
  const fields = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const n = (field: number) => Number(fields[field - 3]);
  return { ppid: n(4), own: n(14) + n(15), reapedChildren: n(16) + n(17) };
}

export function processTicks(pid: number | 'self'): ProcessTicks | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Sum of the own CPU time of every live descendant of `pid` (not `pid` itself). */
export function descendantTicks(pid: number): number {
  const children = new Map<number, number[]>();
  const own = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processTicks(Number(entry));
    if (!stat) continue;
    own.set(Number(entry), stat.own);
    const siblings = children.get(stat.ppid) ?? [];
    siblings.push(Number(entry));
    children.set(stat.ppid, siblings);
  }
  let total = 0;
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.pop() as number;
    total += own.get(next) ?? 0;
    queue.push(...(children.get(next) ?? []));
  }
  return total;
}

/** Busy and total CPU ticks of the whole machine, all cores together (first line of /proc/stat). */
export function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  return parseMachineStat(line);
}

export function parseMachineStat(line: string): { busy: number; total: number } {
  const parts = line.trim().split(/\s+/);
  if (parts[0] !== 'cpu') throw new Error(`not the cpu line of /proc/stat: ${line.slice(0, 80)}`);
  // user nice system idle iowait irq softirq steal; guest time is already inside user.
  const [user, nice, system, idle, iowait, irq, softirq, steal] = parts.slice(1, 9).map(Number);
  const total = user + nice + system + idle + iowait + irq + softirq + (steal || 0);
  return { busy: total - idle - iowait, total };
}
