import type { IncomingMessage } from 'node:http';

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
