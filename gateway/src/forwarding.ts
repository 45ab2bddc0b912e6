import type { IncomingMessage } from 'node:http';

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const first = value.split(',')[0].trim();
  return first === '' ? undefined : first;
}

function lastValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[header.length - 1] : header;
  if (value === undefined) return undefined;
  const parts = value.split(',');
  const last = parts[parts.length - 1].trim();
  return last === '' ? undefined : last;
}

/** What the gateway believes about where a request came from: its own socket, or a trusted proxy's headers. */
export class Forwarding {
  constructor(private readonly trustProxy: boolean) {}

  proto(req: IncomingMessage): 'http' | 'https' {
    if ((req.socket as { encrypted?: boolean }).encrypted) return 'https';
    if (this.trustProxy) {
      const forwarded = firstValue(req.headers['x-forwarded-proto'])?.toLowerCase();
      if (forwarded === 'https' || forwarded === 'http') return forwarded;
    }
    return 'http';
  }

  /** The name the client addressed: behind a trusted proxy, the one it forwarded. */
  requestedHost(req: IncomingMessage): string | undefined {
    if (this.trustProxy) return firstValue(req.headers['x-forwarded-host']) ?? req.headers.host;
    return req.headers.host;
  }

  /** Replaces client-supplied forwarding headers with what the gateway knows (or trusts). */
  setForwardedHeaders(req: IncomingMessage, proto: string): void {
    const remote = req.socket.remoteAddress ?? '';
    const client = this.trustProxy ? (lastValue(req.headers['x-forwarded-for']) ?? remote) : remote;
    const host = this.requestedHost(req);
    req.headers['x-forwarded-for'] = client;
    req.headers['x-forwarded-proto'] = proto;
    if (host) req.headers['x-forwarded-host'] = host;
    else delete req.headers['x-forwarded-host'];
  }
}
