import { sendJsonError } from '../json-response';
import { isStateChanging, type OriginPolicy } from '../origin-check';
import { matchRoute, type Route } from '../routes';
import type { GatewayHandler, RequestContext } from './handler';

/**
 * A state-changing request for a service must come from an allowed origin (403 otherwise). Runs just before
 * the proxy: the gateway's own answers and the SPA take GET and HEAD only, so they need no check.
 */
export class OriginCheckHandler implements GatewayHandler {
  readonly name = 'origin-check';

  constructor(
    private readonly originPolicy: OriginPolicy,
    private readonly routes: readonly Route[],
  ) {}

  handle(ctx: RequestContext): boolean {
    if (!isStateChanging(ctx.req.method) || this.originPolicy.accepts(ctx.req)) return false;
    const route = matchRoute(ctx.pathname, this.routes);
    if (!route) return false;
    ctx.target = route.service;
    sendJsonError(ctx.res, 403, 'Cross-origin request refused');
    return true;
  }
}
