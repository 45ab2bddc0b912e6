import type { BodyLimitKind } from '@district/nest-common';
import type { Forwarding } from '../forwarding';
import { handOver, type InProcessHandler } from '../in-process';
import { sendJsonError } from '../json-response';
import { isApiPath, matchRoute, type Route } from '../routes';
import { refuseTooLarge, type ServiceProxies } from '../service-proxies';
import type { GatewayHandler, RequestContext } from './handler';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and headers the gateway recomputes. */
const STRIPPED_REQUEST_HEADERS = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'upgrade',
  'expect',
  'forwarded',
  'x-forwarded-port',
  'x-real-ip',
];

export interface ProxyHandlerOptions {
  routes: readonly Route[];
  proxies: ServiceProxies;
  forwarding: Forwarding;
  limits: Record<BodyLimitKind, number>;
  /** Services running in this process (`--target=all`): their request listeners, called without a loopback hop. */
  local: ReadonlyMap<string, InProcessHandler>;
  /** How long an in-process service may stay silent before the client gets 504, as through the proxy. */
  upstreamTimeoutMs: number;
}

/**
 * The route table: a path a service declares goes to one of its live replicas (body limits, retries and
 * failures in ServiceProxies), or, when the service runs in this process, straight to its request listener
 * after the same checks and headers (`in-process.ts`); any other `/api` path is a JSON 404, never the SPA.
 */
export class ProxyHandler implements GatewayHandler {
  readonly name = 'proxy';

  constructor(private readonly options: ProxyHandlerOptions) {}

  handle(ctx: RequestContext): boolean {
    const { req, res } = ctx;
    const route = matchRoute(ctx.pathname, this.options.routes);
    if (!route) {
      if (!isApiPath(ctx.pathname)) return false;
      sendJsonError(res, 404, 'Not found');
      return true;
    }
    ctx.target = route.service;
    const limit = this.options.limits[route.bodyLimit];
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      refuseTooLarge(res, limit);
      return true;
    }
    const headers = req.headers;
    // Checked first: `delete` of an absent key still costs a runtime call, ten times per request.
    for (const name of STRIPPED_REQUEST_HEADERS) if (headers[name] !== undefined) delete headers[name];
    this.options.forwarding.setForwardedHeaders(req, ctx.proto);
    if (ctx.expectsContinue) res.writeContinue();
    const local = this.options.local.get(route.service);
    // A body without a declared length is counted against the limit as it streams: only the proxy does that.
    if (local && (declared !== undefined || headers['transfer-encoding'] === undefined)) {
      ctx.upstream = 'in-process';
      // The one address the gateway decided (its socket, or a trusted proxy's entry), as it forwards it.
      const client = headers['x-forwarded-for'] as string;
      handOver(local, req, res, client, route.service, this.options.upstreamTimeoutMs);
    } else {
      this.options.proxies.forward(req, res, route, limit);
    }
    return true;
  }
}
