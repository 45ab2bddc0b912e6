const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isStateChanging(method: string | undefined): boolean {
  return method !== undefined && STATE_CHANGING_METHODS.has(method);
}

// The Origin rule is shared with the chat service's own check at its WebSocket upgrade.
export { OriginPolicy, originOf } from '@district/nest-common';

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The hostname (as `URL` spells it, IPv6 in brackets) names this machine's loopback interface. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** A `host[:port]` as a Host header carries it, or undefined when it is something else (a URL, a path). */
export function hostNameOf(value: string): string | undefined {
  if (value === '' || /[/?#@\\\s]/.test(value)) return undefined;
  try {
    const url = new URL(`http://${value}`);
    const port = /:(\d+)$/.exec(value)?.[1];
    if (url.hostname === '' || (value.includes(':') && !value.endsWith(']') && port === undefined)) {
      return undefined;
    }
    return port === undefined ? url.hostname : `${url.hostname}:${port}`;
  } catch {
    return undefined;
  }
}

/**
 * Decides whether a request is addressed to this site by name. A DNS-rebinding page (its name re-pointed at
 * this server, or at 127.0.0.1 for a gateway on a developer's machine) reaches the gateway with its own name
 * in `Host`; answering only configured names keeps that page from reading anything, GETs included.
 *
 * Accepted: the host of the public origin and of each allowed origin (also with the scheme's default port
 * written out), and the extra names configured for callers that are not browsers of the site (an internal
 * address, a test harness). When the public origin itself is a loopback origin, its loopback aliases
 * (`localhost`, `127.0.0.1`, `[::1]`) on the same port are accepted too: a rebinding attacker's name may
 * resolve to loopback, but the browser then sends the attacker's name in `Host`, never a loopback literal,
 * so these aliases can only come from someone who typed them on this machine.
 */
export class HostPolicy {
  private readonly names: ReadonlySet<string>;

  constructor(
    publicOrigin: string,
    allowedOrigins: readonly string[] = [],
    extraHosts: readonly string[] = [],
  ) {
    const names = new Set<string>();
    for (const value of [publicOrigin, ...allowedOrigins]) {
      const url = new URL(value);
      const hosts = [url.hostname];
      if (value === publicOrigin && isLoopbackHostname(url.hostname)) hosts.push(...LOOPBACK_NAMES);
      for (const host of hosts) {
        if (url.port === '') {
          names.add(host);
          names.add(`${host}:${DEFAULT_PORTS[url.protocol]}`);
        } else {
          names.add(`${host}:${url.port}`);
        }
      }
    }
    for (const value of extraHosts) {
      const name = hostNameOf(value);
      if (!name) throw new Error(`Allowed host ${JSON.stringify(value)} is not a host[:port] name`);
      names.add(name);
    }
    this.names = names;
  }

  accepts(host: string | undefined): boolean {
    return host !== undefined && host !== '' && this.names.has(host.toLowerCase());
  }
}
