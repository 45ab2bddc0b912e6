import type { IncomingMessage } from 'node:http';

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isStateChanging(method: string | undefined): boolean {
  return method !== undefined && STATE_CHANGING_METHODS.has(method);
}

/** `scheme://host[:port]` of a URL in its canonical form, or undefined when it is not a http(s) URL. */
export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * Decides whether a browser request comes from a page of this site. Cross-site request forgery needs a
 * browser, and browsers always send `Origin` on cross-origin state-changing requests and on WebSocket
 * handshakes (or at least `Referer`), so a request with neither is not a browser request from another site.
 * Only configured origins count: never the request's own Host, which a DNS-rebinding page controls (its name
 * resolves to this server, so its Origin and Host match each other).
 */
export class OriginPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(publicOrigin: string, additional: readonly string[] = []) {
    const origins = new Set<string>();
    for (const value of [publicOrigin, ...additional]) {
      const origin = originOf(value);
      if (!origin) throw new Error(`Allowed origin ${JSON.stringify(value)} is not an http(s) URL`);
      origins.add(origin);
    }
    this.allowed = origins;
  }

  /** The public origin and the additional ones. */
  get allowedOrigins(): readonly string[] {
    return [...this.allowed];
  }

  /** True when the request may proceed: no Origin/Referer, or an allowed origin. */
  accepts(req: IncomingMessage): boolean {
    const originHeader = req.headers.origin;
    let claimed: string | undefined;
    if (typeof originHeader === 'string' && originHeader !== '') {
      claimed = originHeader;
    } else {
      const referer = req.headers.referer;
      if (typeof referer !== 'string' || referer === '') return true;
      claimed = referer;
    }
    const origin = originOf(claimed);
    // "null" (sandboxed frames, privacy redirects) and garbage are not an allowed origin.
    return origin !== undefined && this.allowed.has(origin);
  }
}

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
