import type { Forwarding } from '../forwarding';
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
  limits: { default: number; upload: number };
}

/**
 * The route table: a path a service declares goes to one of its live replicas (body limits, retries and
 * failures in ServiceProxies); any other `/api` path is a JSON 404, never the SPA.
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
    const limit = route.bodyLimit === 'upload' ? this.options.limits.upload : this.options.limits.default;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      refuseTooLarge(res, limit);
      return true;
    }
    const connection = req.headers.connection;
    for (const name of STRIPPED_REQUEST_HEADERS) delete req.headers[name];
    this.options.forwarding.setForwardedHeaders(req, ctx.proto);
    if (ctx.expectsContinue) res.writeContinue();
    this.options.proxies.forward(req, res, route, limit, connection);
    return true;
  }
}
