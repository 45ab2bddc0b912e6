import { sendJsonError } from '../json-response';
import type { Forwarding } from '../forwarding';
import type { HostPolicy } from '../origin-check';
import type { GatewayHandler, RequestContext } from './handler';

/** Answered whatever the Host: orchestrators probe the pod's address. */
const PROBE_ENDPOINTS = new Set(['/healthz', '/readyz']);

function hasParentSegment(pathname: string): boolean {
  return pathname.includes('/..') && pathname.split('/').includes('..');
}

/**
 * First: the request must name the site (421 otherwise, against DNS rebinding) and its target must be a plain
 * path (400), before anything is routed or read.
 */
export class HostCheckHandler implements GatewayHandler {
  readonly name = 'host-check';

  constructor(
    private readonly hostPolicy: HostPolicy,
    private readonly forwarding: Forwarding,
    /** `/metrics` needs a token: a scraper may reach it by the pod's address, a rebinding page cannot present it. */
    private readonly metricsTokenSet: boolean,
  ) {}

  handle(ctx: RequestContext): boolean {
    if (!this.hostAccepted(ctx)) {
      sendJsonError(ctx.res, 421, 'Unknown host');
      return true;
    }
    if (ctx.pathname === '' || hasParentSegment(ctx.pathname)) {
      sendJsonError(ctx.res, 400, 'Invalid path');
      return true;
    }
    return false;
  }

  private hostAccepted({ req, pathname }: RequestContext): boolean {
    if (PROBE_ENDPOINTS.has(pathname)) return true;
    if (pathname === '/metrics' && this.metricsTokenSet) return true;
    return this.hostPolicy.accepts(this.forwarding.requestedHost(req));
  }
}
