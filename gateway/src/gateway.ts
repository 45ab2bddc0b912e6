import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { ROSTER_ZIP_MAX_BYTES } from '@district/contracts';
import type { InProcessHandler, PageFetch, PagePlugin } from '@district/nest-common';
import { AccessLog } from './access-log';
import { ApiDocs } from './api-docs';
import { Forwarding } from './forwarding';
import { GatewayMetrics } from './gateway-metrics';
import { ApiDocsHandler } from './handlers/api-docs';
import type { GatewayHandler, RequestContext } from './handlers/handler';
import { HostCheckHandler } from './handlers/host-check';
import { OriginCheckHandler } from './handlers/origin-check';
import { METRICS_TOKEN_NEEDED, OwnEndpointsHandler } from './handlers/own-endpoints';
import { PageMetaHandler } from './handlers/page-meta';
import { ProxyHandler } from './handlers/proxy';
import { StaticSiteHandler } from './handlers/static-site';
import { answerClientError, sendJsonError } from './json-response';
import { HostPolicy, OriginPolicy, isLoopbackHostname } from './origin-check';
import { assignRequestId } from './request-id';
import { buildRouteTable, matchRoute, type GatewayService } from './routes';
import { GatewayResponse } from './security-headers';
import { ServiceProxies } from './service-proxies';
import { StaticSite } from './static-site';
import { fetchUpstreamJson } from './upstream-fetch';
import type { ReplicaStatus } from './upstream-pool';
import { UpgradeHandler, type UpgradeAuthenticator } from './upgrade';
import {
  CONNECTION_CHECK_INTERVAL_MS,
  DEFAULT_MAX_UNFINISHED_PER_ADDRESS,
  HEADERS_TIMEOUT_MS,
  UnfinishedRequests,
} from './unfinished-requests';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** A 5 MB image plus the multipart envelope. */
export const DEFAULT_UPLOAD_LIMIT = 6 * 1024 * 1024;
/** A district's roster zip (identity refuses one over ROSTER_ZIP_MAX_BYTES itself, with its own message). */
export const ROSTER_UPLOAD_LIMIT = ROSTER_ZIP_MAX_BYTES + 1024 * 1024;

export interface GatewayOptions {
  /**
   * The services behind the gateway and the public paths each answers (the launcher's registry), in
   * route-table order. Each gets a replica pool, even when `upstreams` has none for it (then it answers 503).
   */
  services: readonly GatewayService[];
  /** Base URLs of each service's replicas by name, e.g. `{ <name>: ['http://127.0.0.1:4101'] }`. */
  upstreams: Readonly<Record<string, readonly string[]>>;
  /** The site's public origin, e.g. `http://localhost:3000`; state-changing requests must come from it. */
  publicOrigin: string;
  /** More origins whose pages may send state-changing requests (another public host name). */
  allowedOrigins?: readonly string[];
  /**
   * More `host[:port]` names the site may be reached by without being an allowed origin (an internal
   * address). Requests for any name that is neither this nor the host of an allowed origin get 421.
   */
  allowedHosts?: readonly string[];
  /** The built SPA (web/dist). May be absent or not yet built. */
  staticDir?: string;
  logger: Logger;
  bodyLimits?: { default?: number; upload?: number };
  /**
   * The gateway sits behind a proxy (an ingress) that sets X-Forwarded-For/-Proto/-Host: believe them.
   * Off by default, because then any client could claim any address (and dodge per-address limits).
   */
  trustProxy?: boolean;
  /** Active readiness check (`/readyz`) period per replica; 0 disables it. */
  healthCheckIntervalMs?: number;
  /** How long a replica that refused or reset a connection is skipped. */
  passiveDownMs?: number;
  /** An upstream silent for this long (no bytes) gets a 504. */
  upstreamTimeoutMs?: number;
  /**
   * When set, `/metrics` needs `Authorization: Bearer <token>`. Without it, `/metrics` is open only while
   * the gateway listens on loopback; beyond loopback it answers 403.
   */
  metricsToken?: string;
  /** Register process metrics (CPU, memory, event loop) in the gateway's registry. */
  defaultMetrics?: boolean;
  /** How long `close()` lets in-flight requests finish before cutting connections. */
  shutdownGraceMs?: number;
  /**
   * Head tags for some SPA pages (link previews), declared by the services that own those pages (content's
   * lessons). The gateway itself knows no page.
   */
  pagePlugins?: readonly PagePlugin[];
  /**
   * Checks the session cookie of a WebSocket upgrade: without a valid session it is refused with 401 (503 while
   * the session state is being restored) before any replica is contacted. Unset, upgrades pass unchecked.
   */
  authenticate?: UpgradeAuthenticator;
  /**
   * Services running in this process (`--target=all`): the gateway calls their request listeners with the
   * client's own request and response after its checks, instead of a loopback HTTP hop (ADR 0016). Their
   * replicas in `upstreams` still serve upgrades, page plug-ins, bodies without a declared length and health.
   */
  local?: Readonly<Record<string, InProcessHandler>>;
  /**
   * How many requests (or upgrades) one client address may have whose headers are still arriving a second on;
   * the connections beyond it get 429 and are closed (ADR 0032). Each one's headers must be complete within 10 s.
   */
  maxUnfinishedPerAddress?: number;
}

export interface Gateway {
  readonly server: http.Server;
  readonly metrics: GatewayMetrics;
  /** `backlog`: the accept queue (the launcher's LISTEN_BACKLOG; Node's 511 when unset), capped by the kernel's somaxconn. */
  listen(port: number, host?: string, backlog?: number): Promise<AddressInfo>;
  close(): Promise<void>;
  isReady(): boolean;
  upstreamStatus(): Record<string, ReplicaStatus[]>;
}

/** How long a page plug-in's lookup may take before the plain app is served. */
const PAGE_LOOKUP_TIMEOUT_MS = 2_000;

function pathOf(url: string | undefined): string | undefined {
  if (url === undefined || url.charCodeAt(0) !== 47 /* '/' */) return undefined;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The bound address is on loopback (127.0.0.0/8 or ::1): nothing outside this machine can connect. */
function isLoopbackAddress(address: string): boolean {
  return isLoopbackHostname(address.includes(':') ? `[${address}]` : address);
}

/**
 * The composition: the context of each request (request id, security headers, access log), then the handlers
 * tried in order until one answers. Every step is its own file under `handlers/`; upgrades go to `upgrade.ts`.
 */
export function createGateway(options: GatewayOptions): Gateway {
  // Built first: a table that would misroute refuses to start before anything is opened.
  const routes = buildRouteTable(options.services);
  const logger = options.logger;
  const forwarding = new Forwarding(options.trustProxy ?? false);
  const allowedOrigins = options.allowedOrigins ?? [];
  const originPolicy = new OriginPolicy(options.publicOrigin, allowedOrigins);
  const hostPolicy = new HostPolicy(options.publicOrigin, allowedOrigins, options.allowedHosts ?? []);
  let closing = false;
  let closePromise: Promise<void> | undefined;
  // Until listen() says the socket is on loopback, /metrics without a token is refused.
  let metricsOpenWithoutToken = false;

  const proxies = new ServiceProxies({
    services: options.services,
    upstreams: options.upstreams,
    logger,
    passiveDownMs: options.passiveDownMs ?? 3000,
    healthCheckIntervalMs: options.healthCheckIntervalMs,
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? 60_000,
    isClosing: () => closing,
  });
  const pools = proxies.pools;
  const metrics = new GatewayMetrics({
    defaultMetrics: options.defaultMetrics,
    upstreams: () => [...pools].map(([service, pool]) => ({ service, replicas: pool.status() })),
  });
  const accessLog = new AccessLog(logger, metrics, (req) => proxies.upstreamOf(req));
  const staticSite = new StaticSite(options.staticDir, logger);

  /** A plug-in's GET goes to the service the route table sends its path to (no host from a request). */
  const pageFetch =
    (requestId: string): PageFetch =>
    (path, fetchOptions) => {
      const route = matchRoute(path, routes);
      const pool = route && pools.get(route.service);
      if (!pool) return Promise.reject(new Error(`no service answers ${path}`));
      return fetchUpstreamJson(pool, path, {
        requestId,
        timeoutMs: PAGE_LOOKUP_TIMEOUT_MS,
        fresh: fetchOptions?.fresh,
      });
    };

  const handlers: readonly GatewayHandler[] = [
    new HostCheckHandler(hostPolicy, forwarding, options.metricsToken !== undefined),
    new OwnEndpointsHandler({
      pools,
      metrics,
      logger,
      metricsToken: options.metricsToken,
      isReady,
      isClosing: () => closing,
      metricsOpenWithoutToken: () => metricsOpenWithoutToken,
    }),
    new ApiDocsHandler(new ApiDocs({ pools, routes, publicOrigin: options.publicOrigin, logger })),
    new OriginCheckHandler(originPolicy, routes),
    new ProxyHandler({
      routes,
      proxies,
      forwarding,
      limits: {
        default: options.bodyLimits?.default ?? DEFAULT_BODY_LIMIT,
        upload: options.bodyLimits?.upload ?? DEFAULT_UPLOAD_LIMIT,
        roster: ROSTER_UPLOAD_LIMIT,
      },
      local: new Map(Object.entries(options.local ?? {})),
      upstreamTimeoutMs: options.upstreamTimeoutMs ?? 60_000,
    }),
    new PageMetaHandler({
      plugins: options.pagePlugins ?? [],
      staticSite,
      fetchFor: pageFetch,
      publicOrigin: options.publicOrigin,
      logger,
    }),
    new StaticSiteHandler(staticSite),
  ];

  const upgrades = new UpgradeHandler({
    routes,
    proxies,
    hostPolicy,
    originPolicy,
    forwarding,
    accessLog,
    logger,
    authenticate: options.authenticate,
    isClosing: () => closing,
  });

  const server = http.createServer({
    ServerResponse: GatewayResponse,
    // Slow headers (slowloris): measured from a request's first byte (or the connection's opening), never reset by
    // a trickle, for upgrades too; Node checks every second instead of its default 30 s (ADR 0032).
    headersTimeout: HEADERS_TIMEOUT_MS,
    connectionsCheckingInterval: CONNECTION_CHECK_INTERVAL_MS,
  });
  // Longer than common load balancer idle timeouts, so the balancer never reuses a socket we just closed. Node
  // counts an idle kept-alive socket under this, not under headersTimeout, which starts with the next request.
  server.keepAliveTimeout = 65_000;
  const unfinished = new UnfinishedRequests({
    maxPerAddress: options.maxUnfinishedPerAddress ?? DEFAULT_MAX_UNFINISHED_PER_ADDRESS,
    logger,
  });
  unfinished.attach(server);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => handleRequest(req, res, false));
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => handleRequest(req, res, true));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    upgrades.handle(req, socket, head),
  );
  // A request Node cannot parse never reaches the handlers: it still gets a JSON error with a message.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(err, socket, randomUUID()),
  );

  function handleRequest(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void {
    const started = performance.now();
    const requestId = assignRequestId(req);
    const proto = forwarding.proto(req);
    // The request id and the security headers go out with whatever head this request gets.
    (res as GatewayResponse).secure(requestId, proto === 'https');
    // While shutting down, tell keep-alive clients to reconnect (to another instance) after this answer.
    if (closing) res.setHeader('Connection', 'close');
    const ctx: RequestContext = {
      req,
      res,
      pathname: pathOf(req.url) ?? '',
      requestId,
      proto,
      expectsContinue,
      target: 'none',
    };
    accessLog.track(ctx, started);
    runHandlers(ctx, 0);
  }

  /**
   * Tries the handlers from `from` on. Synchronous steps stay synchronous, without a promise: only a handler that
   * returns one is waited for, and the rest run when it settles.
   */
  function runHandlers(ctx: RequestContext, from: number): void {
    for (let i = from; i < handlers.length; i++) {
      let handled: boolean | Promise<boolean>;
      try {
        handled = handlers[i].handle(ctx);
      } catch (err) {
        handlerFailed(ctx, err);
        return;
      }
      if (handled === true) return;
      if (handled !== false) {
        handled.then(
          (done) => {
            if (!done) runHandlers(ctx, i + 1);
          },
          (err: unknown) => handlerFailed(ctx, err),
        );
        return;
      }
    }
    sendJsonError(ctx.res, 404, 'Not found');
  }

  function handlerFailed({ res, requestId, target }: RequestContext, err: unknown): void {
    logger.error({ err, requestId, target }, 'request handler failed');
    if (!res.headersSent) sendJsonError(res, 500, 'Internal server error');
    else res.destroy();
  }

  function isReady(): boolean {
    return server.listening && !closing;
  }

  function listen(port: number, host?: string, backlog?: number): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      server.once('error', onError);
      server.listen({ port, host, backlog }, () => {
        server.off('error', onError);
        const address = server.address() as AddressInfo;
        logger.info({ port: address.port, host: address.address }, 'gateway listening');
        metricsOpenWithoutToken = isLoopbackAddress(address.address);
        if (options.metricsToken === undefined && !metricsOpenWithoutToken) {
          logger.warn(
            { host: address.address },
            `${METRICS_TOKEN_NEEDED} /metrics answers 403 until it is set.`,
          );
        }
        resolve(address);
      });
    });
  }

  function close(): Promise<void> {
    closePromise ??= (async () => {
      closing = true;
      unfinished.stop();
      proxies.stopHealthChecks();
      upgrades.closeAll();
      if (server.listening) {
        await new Promise<void>((resolve) => {
          const grace = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 5000);
          grace.unref();
          server.close(() => {
            clearTimeout(grace);
            resolve();
          });
          server.closeIdleConnections();
        });
      }
      proxies.close();
    })();
    return closePromise;
  }

  return { server, metrics, listen, close, isReady, upstreamStatus: () => proxies.status() };
}
