import { readFileSync } from 'node:fs';

/**
 * A base port for a test or benchmark cluster (`CLUSTER_BASE_PORT`; launcher/src/cluster.ts gives its members
 * base+1, base+2, …): random, so runs side by side rarely meet, and with `members` ports above it all below the
 * machine's ephemeral range. A port inside that range can be taken as the local port of some outbound connection
 * (a replica's own connection to PostgreSQL, Redis or NATS) before the member meant for it binds it — seen in CI:
 * a replica failing with EADDRINUSE on every restart for a minute.
 */
export function clusterBasePort(members = 64, rangeFile = '/proc/sys/net/ipv4/ip_local_port_range'): number {
  let ephemeralLow = 32_768;
  try {
    const low = Number(readFileSync(rangeFile, 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 0) ephemeralLow = low;
  } catch {
    // Not Linux: the IANA range's start (also Linux's usual default).
  }
  const lowest = 10_000;
  const highest = Math.max(lowest, ephemeralLow - 1 - members);
  return lowest + Math.floor(Math.random() * (highest - lowest + 1));
}
