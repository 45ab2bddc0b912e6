import { createHash, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../gateway-metrics';
import { sendJson, sendJsonError } from '../json-response';
import type { UpstreamPool } from '../upstream-pool';
import type { GatewayHandler, RequestContext } from './handler';

const OWN_ENDPOINTS = new Set(['/healthz', '/readyz', '/metrics']);

export const METRICS_TOKEN_NEEDED =
  'Metrics need GATEWAY_METRICS_TOKEN: the gateway listens beyond loopback, where /metrics is not open.';

/** Fixed-length digests, so comparing a presented token takes the same time whatever it shares with ours. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export interface OwnEndpointsOptions {
  pools: ReadonlyMap<string, UpstreamPool>;
  metrics: GatewayMetrics;
  logger: Logger;
  metricsToken?: string;
  isReady(): boolean;
  isClosing(): boolean;
  /** The gateway listens on loopback only: `/metrics` may go without a token. */
  metricsOpenWithoutToken(): boolean;
}

/** `/healthz`, `/readyz` and `/metrics`: the gateway's own, never proxied. */
export class OwnEndpointsHandler implements GatewayHandler {
  readonly name = 'own-endpoints';
  private readonly metricsAuthorization: Buffer | undefined;

  constructor(private readonly options: OwnEndpointsOptions) {
    this.metricsAuthorization =
      options.metricsToken === undefined ? undefined : digest(`Bearer ${options.metricsToken}`);
  }

  handle(ctx: RequestContext): boolean | Promise<boolean> {
    if (!OWN_ENDPOINTS.has(ctx.pathname)) return false;
    ctx.target = 'gateway';
    return this.answer(ctx).then(() => true);
  }

  private async answer({ req, res, pathname }: RequestContext): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJsonError(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const noStore = { 'Cache-Control': 'no-store' };
    if (pathname === '/healthz') {
      sendJson(res, 200, { status: 'ok' }, noStore);
      return;
    }
    if (pathname === '/readyz') {
      const ready = this.options.isReady();
      // Counts only: the replicas' addresses are internal and this endpoint answers anyone.
      const services: Record<string, { available: number; total: number }> = {};
      for (const [service, pool] of this.options.pools) {
        services[service] = { available: pool.availableCount(), total: pool.replicas.length };
      }
      const status = ready ? 'ready' : this.options.isClosing() ? 'stopping' : 'starting';
      sendJson(res, ready ? 200 : 503, { status, services }, noStore);
      return;
    }
    if (this.metricsAuthorization === undefined && !this.options.metricsOpenWithoutToken()) {
      sendJsonError(res, 403, METRICS_TOKEN_NEEDED);
      return;
    }
    if (this.metricsAuthorization !== undefined && !this.authorizationMatches(req.headers.authorization)) {
      sendJsonError(res, 401, 'A valid metrics token is required', { 'WWW-Authenticate': 'Bearer' });
      return;
    }
    const metrics = this.options.metrics;
    try {
      const body = await metrics.render();
      res.statusCode = 200;
      res.setHeader('Content-Type', metrics.contentType());
      res.setHeader('Cache-Control', 'no-store');
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      this.options.logger.error({ err }, 'metrics rendering failed');
      sendJsonError(res, 500, 'Internal server error');
    }
  }

  private authorizationMatches(header: string | undefined): boolean {
    return (
      typeof header === 'string' &&
      this.metricsAuthorization !== undefined &&
      timingSafeEqual(digest(header), this.metricsAuthorization)
    );
  }
}
