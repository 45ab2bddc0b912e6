import { createHash, timingSafeEqual } from 'node:crypto';

export const METRICS_TOKEN_NEEDED =
  'Metrics need METRICS_TOKEN: the service listens beyond loopback, where /metrics is not open.';

/** The listen address is on loopback (127.0.0.0/8, ::1, localhost): nothing outside this machine can connect. */
export function isLoopbackListenHost(host: string): boolean {
  const name = host.toLowerCase();
  return name === 'localhost' || name === '::1' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

export type MetricsVerdict = 'allowed' | 'token-needed' | 'unauthorized';

/**
 * Who may read a service's /metrics. Until `configure` is told where the service listens, nobody without a
 * token (a service built outside `startService` gets the safe answer).
 */
export class MetricsAccess {
  private authorization?: Buffer;
  private openWithoutToken = false;

  configure(token: string | undefined, listenHost: string): void {
    this.authorization = token === undefined ? undefined : digest(`Bearer ${token}`);
    this.openWithoutToken = isLoopbackListenHost(listenHost);
  }

  /** No token set and reachable from other machines: /metrics answers 403 to everyone. */
  get refusesAll(): boolean {
    return this.authorization === undefined && !this.openWithoutToken;
  }

  verdict(authorizationHeader: string | string[] | undefined): MetricsVerdict {
    if (this.authorization === undefined) return this.openWithoutToken ? 'allowed' : 'token-needed';
    // Fixed-length digests: the comparison takes the same time whatever the presented value shares with ours.
    const presented = typeof authorizationHeader === 'string' ? digest(authorizationHeader) : undefined;
    return presented !== undefined && timingSafeEqual(presented, this.authorization)
      ? 'allowed'
      : 'unauthorized';
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
