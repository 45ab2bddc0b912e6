import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The load generator's local (ephemeral) port range, widened for a benchmark run and put back after it.
 *
 * One load generator stands in for thousands of browsers, each of which would have its own ports. Every one of its
 * connections to a server takes a local port, all from one range (Linux's default 32768–60999: 28,232 ports). With
 * 19,000 held, the kernel searches long for a free one at each new connect: on an AMD EPYC host, 9,500 plain TCP
 * reconnects cost the load generator's core 4.8–6.7 s (4.0–5.6 s of it in the kernel) with the default range and
 * 0.9–1.3 s with 10000–65535 (`npm run bench:reconnect-ports -w bench`; bench/reports/chat.md, "The load
 * generator's ports"). That is the load generator's cost, not the server's, so runs widen the range, as is usual on
 * load-testing hosts.
 */
export const PORT_RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';
export const WIDE_PORT_RANGE = '10000-65535';

export interface PortRange {
  low: number;
  high: number;
}

/** `10000-65535` (the option's form) or the kernel's `10000\t65535`; undefined for anything else. */
export function parsePortRange(text: string): PortRange | undefined {
  const m = /^\s*(\d{1,5})\s*[-\s]\s*(\d{1,5})\s*$/.exec(text);
  if (!m) return undefined;
  const [low, high] = [Number(m[1]), Number(m[2])];
  return low >= 1024 && high <= 65535 && low < high ? { low, high } : undefined;
}

export const describePortRange = (r: PortRange) => `${r.low}-${r.high} (${r.high - r.low + 1} ports)`;

export interface PortRangeSetting {
  /** What the machine had. */
  before?: PortRange;
  /** What the runs used. */
  used?: PortRange;
  /** Why the range was left as it was, when it was. */
  note?: string;
  restore(): void;
}

/**
 * Sets the range for the run (`keep`: leaves it). A range the process may not write (not root, not Linux) is left
 * as it is, with a note saying so; restore() puts back what was there.
 */
export function widenPortRange(wanted: string, file = PORT_RANGE_FILE): PortRangeSetting {
  let before: PortRange | undefined;
  try {
    before = parsePortRange(readFileSync(file, 'utf8'));
  } catch {
    return { note: `${file} cannot be read: the range is the system's`, restore: () => undefined };
  }
  if (wanted === 'keep')
    return { before, used: before, note: 'kept as it was (--port-range keep)', restore: () => undefined };
  const range = parsePortRange(wanted);
  if (!range) throw new Error(`--port-range ${wanted}: expected LOW-HIGH within 1024-65535, or keep`);
  try {
    writeFileSync(file, `${range.low} ${range.high}`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      before,
      used: before,
      note: `could not be set (${why}): kept as it was`,
      restore: () => undefined,
    };
  }
  let restored = false;
  return {
    before,
    used: range,
    restore() {
      if (restored || !before) return;
      restored = true;
      writeFileSync(file, `${before.low} ${before.high}`);
    },
  };
}
