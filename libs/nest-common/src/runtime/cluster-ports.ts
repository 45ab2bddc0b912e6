import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The exit code of a process whose listening port another program holds (EADDRINUSE): the cluster launcher stops
 * rather than restart it for ever while the gateway's traffic for that address reaches the other program.
 */
export const PORT_TAKEN_EXIT_CODE = 98;

/** The machine's ephemeral range, where the kernel picks outgoing connections' local ports. */
function ephemeralRange(rangeFile: string): [number, number] {
  try {
    const [low, high] = readFileSync(rangeFile, 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low > 0 && high >= low) return [low, high];
  } catch {
    // Not Linux: the IANA range (also Linux's usual default starts there).
  }
  return [32_768, 60_999];
}

/**
 * A base port for a test or benchmark cluster (`CLUSTER_BASE_PORT`; launcher/src/cluster.ts gives its members
 * base+1, base+2, …): random, so runs side by side rarely meet, and with `members` ports above it all outside the
 * machine's ephemeral range — below it from 10,000 up, or above it. A port inside that range can be taken as the
 * local port of some outbound connection (a replica's own connection to PostgreSQL, Redis or NATS) before the
 * member meant for it binds it — seen in CI: a replica failing with EADDRINUSE on every restart for a minute.
 * A range widened to leave no room there (the chat benchmark's 10000-65535) moves the floor down to 1,024: still
 * random, where a fixed base would put every cluster started meanwhile on the same ports. `freeClusterBase` then
 * checks the ports are free.
 */
export function clusterBasePort(members = 64, rangeFile = '/proc/sys/net/ipv4/ip_local_port_range'): number {
  const [low, high] = ephemeralRange(rangeFile);
  const spans: Array<[number, number]> = [];
  const add = (from: number, to: number) => {
    if (to >= from) spans.push([from, to]);
  };
  add(10_000, low - 1 - members);
  add(high + 1, 65_535 - members);
  if (spans.length === 0) add(1024, low - 1 - members);
  if (spans.length === 0) add(1024, 65_535 - members);
  let pick = Math.floor(Math.random() * spans.reduce((sum, [from, to]) => sum + to - from + 1, 0));
  for (const [from, to] of spans) {
    if (pick <= to - from) return from + pick;
    pick -= to - from + 1;
  }
  return spans[spans.length - 1][1];
}

/** Whether `port` on `host` can be listened on now (nothing holds it, not even on every address). */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The first of base+1 … base+count that is taken, or undefined when all are free. */
export async function firstTakenPort(
  base: number,
  count: number,
  isFree = portIsFree,
): Promise<number | undefined> {
  for (let port = base + 1; port <= base + count; port++) if (!(await isFree(port))) return port;
  return undefined;
}

/**
 * The cluster's base port from `CLUSTER_BASE_PORT`: a number is used as it is, once its `count` ports are seen
 * free (an error naming the taken one otherwise: better than a gateway routing to a stranger); `auto` picks a
 * random base whose ports are free (clusterBasePort); unset is `fallback` (npm run start:cluster's 4100), checked
 * the same way. A check cannot reserve the ports: a process taking one before its member binds it makes that member
 * exit with PORT_TAKEN_EXIT_CODE.
 */
export async function freeClusterBase(
  setting: string | undefined,
  count: number,
  options: {
    fallback?: number;
    attempts?: number;
    isFree?: (port: number) => Promise<boolean>;
    pick?: () => number;
  } = {},
): Promise<number> {
  const isFree = options.isFree ?? portIsFree;
  const value = (setting ?? '').trim();
  if (value.toLowerCase() === 'auto') {
    const pick = options.pick ?? (() => clusterBasePort(count));
    const attempts = options.attempts ?? 20;
    for (let i = 0; i < attempts; i++) {
      const base = pick();
      if ((await firstTakenPort(base, count, isFree)) === undefined) return base;
    }
    throw new Error(`CLUSTER_BASE_PORT=auto found no ${count} free ports in a row in ${attempts} tries`);
  }
  const base = value === '' ? (options.fallback ?? 4100) : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(base >= 1 && base + count <= 65_535))
    throw new Error(
      `CLUSTER_BASE_PORT must be a port number (with ${count} ports above it) or auto, not "${value}"`,
    );
  const taken = await firstTakenPort(base, count, isFree);
  if (taken !== undefined)
    throw new Error(
      `Port ${taken} (of the cluster's ${base + 1}–${base + count}) is taken by another program: ` +
        'set CLUSTER_BASE_PORT to another base, or to auto',
    );
  return base;
}
