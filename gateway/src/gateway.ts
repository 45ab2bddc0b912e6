import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { createProxyMiddleware, type RequestHandler } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { Headers } from '@district/contracts';
import { GatewayMetrics } from './gateway-metrics';
import { rejectUpgrade, sendJson, sendJsonError } from './json-response';
import { API_DOCS_JSON_PATH, API_DOCS_PATH, ApiDocs, renderDocsPage } from './api-docs';
import { HostPolicy, OriginPolicy, isLoopbackHostname, isStateChanging } from './origin-check';
import { POST_LOOKUP_PATH, PostPageMeta, blogSlugOf, injectHead, renderHeadTags } from './page-meta';
import { assignRequestId } from './request-id';
import {
  WEBSOCKET_PATH,
  buildRouteTable,
  isApiPath,
  matchRoute,
  type GatewayService,
  type Route,
} from './routes';
import { applySecurityHeaders } from './security-headers';
import { StaticSite } from './static-site';
import { Replica, UpstreamPool, isConnectError, isResetError, type ReplicaStatus } from './upstream-pool';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** A 5 MB image plus the multipart envelope. */
export const DEFAULT_UPLOAD_LIMIT = 6 * 1024 * 1024;

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
  /** Active `/healthz` check period per replica; 0 disables it. */
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
}

export interface Gateway {
  readonly server: http.Server;
  readonly metrics: GatewayMetrics;
  listen(port: number, host?: string): Promise<AddressInfo>;
  close(): Promise<void>;
  isReady(): boolean;
  upstreamStatus(): Record<string, ReplicaStatus[]>;
}

/** What the gateway knows about one proxied request while it is in flight. */
interface ProxyState {
  readonly route: Route;
  /** The client response (absent for upgrades). */
  readonly res?: ServerResponse;
  readonly pool: UpstreamPool;
  readonly limit: number;
  readonly tried: Set<Replica>;
  replica?: Replica;
  attempts: number;
  proxyReq?: ClientRequest;
  bodyBytes: number;
  counting: boolean;
  /** The gateway has answered on its own (413); late proxy events are ignored. */
  settled: boolean;
  gotResponse: boolean;
  timedOut: boolean;
  /** The client's Connection header, removed before proxying so upstream keep-alive is not defeated. */
  clientConnection?: string;
}

/** A lesson that is not (or no longer) public: the app says so, crawlers drop the URL. */
const NOINDEX_TAG = '<meta name="robots" content="noindex" />';
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const OWN_ENDPOINTS = new Set(['/healthz', '/readyz', '/metrics']);
/** Answered whatever the Host: orchestrators probe the pod's address. */
const PROBE_ENDPOINTS = new Set(['/healthz', '/readyz']);
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

class UpstreamTimeoutError extends Error {
  readonly code = 'EGATEWAYTIMEOUT';
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (Number.isInteger(mb)) return `${mb} MB`;
  const kb = bytes / 1024;
  return Number.isInteger(kb) ? `${kb} KB` : `${bytes} bytes`;
}

function unavailableMessage(service: string | undefined): string {
  return `The ${service ?? 'requested'} service is not available right now. Please try again shortly.`;
}

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

function pathOf(url: string | undefined): string | undefined {
  if (url === undefined || url.charCodeAt(0) !== 47 /* '/' */) return undefined;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

const METRICS_TOKEN_NEEDED =
  'Metrics need GATEWAY_METRICS_TOKEN: the gateway listens beyond loopback, where /metrics is not open.';

/** Fixed-length digests, so comparing a presented token takes the same time whatever it shares with ours. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The bound address is on loopback (127.0.0.0/8 or ::1): nothing outside this machine can connect. */
function isLoopbackAddress(address: string): boolean {
  return isLoopbackHostname(address.includes(':') ? `[${address}]` : address);
}

function hasParentSegment(pathname: string): boolean {
  return pathname.includes('/..') && pathname.split('/').includes('..');
}

export function createGateway(options: GatewayOptions): Gateway {
  // Built first: a table that would misroute refuses to start before anything is opened.
  const routes = buildRouteTable(options.services);
  // The service that declares /ws gets the upgrades; without one, an upgrade there is refused like any path.
  const websocketService = matchRoute(WEBSOCKET_PATH, routes)?.service;
  const logger = options.logger;
  const trustProxy = options.trustProxy ?? false;
  const defaultLimit = options.bodyLimits?.default ?? DEFAULT_BODY_LIMIT;
  const uploadLimit = options.bodyLimits?.upload ?? DEFAULT_UPLOAD_LIMIT;
  const passiveDownMs = options.passiveDownMs ?? 3000;
  const retryAfter = String(Math.max(1, Math.ceil(passiveDownMs / 1000)));
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 60_000;
  const originPolicy = new OriginPolicy(options.publicOrigin, options.allowedOrigins ?? []);
  const hostPolicy = new HostPolicy(
    options.publicOrigin,
    options.allowedOrigins ?? [],
    options.allowedHosts ?? [],
  );
  const metricsAuthorization =
    options.metricsToken === undefined ? undefined : digest(`Bearer ${options.metricsToken}`);
  // Until listen() says the socket is on loopback, /metrics without a token is refused.
  let metricsOpenWithoutToken = false;
  const staticSite = new StaticSite(options.staticDir);
  const metrics = new GatewayMetrics({
    defaultMetrics: options.defaultMetrics,
    upstreams: () => [...pools].map(([service, pool]) => ({ service, replicas: pool.status() })),
  });
  const states = new WeakMap<IncomingMessage, ProxyState>();
  const upgradedSockets = new Set<Duplex>();
  let closing = false;
  let closePromise: Promise<void> | undefined;

  const pools = new Map<string, UpstreamPool>();
  const proxies = new Map<string, RequestHandler>();
  for (const { name: service } of options.services) {
    const pool = new UpstreamPool(service, options.upstreams[service] ?? [], {
      passiveDownMs,
      healthCheckIntervalMs: options.healthCheckIntervalMs,
      onStatusChange: (replica, up) => {
        logger.warn(
          { service, replica: replica.url, up },
          up ? 'upstream replica is back' : 'upstream replica is down',
        );
      },
    });
    pools.set(service, pool);
    proxies.set(service, createServiceProxy(pool));
  }

  function createServiceProxy(pool: UpstreamPool): RequestHandler {
    return createProxyMiddleware<IncomingMessage, ServerResponse>({
      // A parsed URL, so http-proxy does not parse the target string again on every request.
      router: (req) => states.get(req)?.replica?.target,
      agent: pool.agent,
      // The Host header stays the public one, so services build correct absolute URLs and cookies.
      changeOrigin: false,
      xfwd: false,
      // The default plugins log through console and answer errors in plain text; ours are below.
      ejectPlugins: true,
      plugins: [
        (proxyServer) => {
          proxyServer.on('start', (req) => onProxyStart(req));
          proxyServer.on('proxyReq', (proxyReq, req) => onProxyReq(proxyReq, req));
          proxyServer.on('proxyRes', (proxyRes, req, res) => onProxyRes(proxyRes, req, res));
          proxyServer.on('error', (err, req, res) => onProxyError(err, req, res));
          proxyServer.on('econnreset', () => undefined);
          proxyServer.on('proxyReqWs', (proxyReq, req) => onProxyReqWs(proxyReq, req));
          proxyServer.on('open', (proxySocket) => proxySocket.on('error', () => undefined));
        },
      ],
    });
  }

  // Lesson pages ask whichever service answers the public post path.
  const postsService = matchRoute(`${POST_LOOKUP_PATH}x`, routes)?.service;
  const postPageMeta = new PostPageMeta({
    pool: postsService === undefined ? undefined : pools.get(postsService),
    publicOrigin: options.publicOrigin,
    logger,
  });

  const apiDocs = new ApiDocs({ pools, routes, publicOrigin: options.publicOrigin, logger });

  const server = http.createServer();
  // Longer than common load balancer idle timeouts, so the balancer never reuses a socket we just closed.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => handleRequest(req, res, false));
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => handleRequest(req, res, true));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    handleUpgrade(req, socket, head),
  );

  function resolveProto(req: IncomingMessage): 'http' | 'https' {
    if ((req.socket as { encrypted?: boolean }).encrypted) return 'https';
    if (trustProxy) {
      const forwarded = firstValue(req.headers['x-forwarded-proto'])?.toLowerCase();
      if (forwarded === 'https' || forwarded === 'http') return forwarded;
    }
    return 'http';
  }

  /** Replaces client-supplied forwarding headers with what the gateway knows (or trusts). */
  function setForwardedHeaders(req: IncomingMessage, proto: string): void {
    const remote = req.socket.remoteAddress ?? '';
    const client = trustProxy ? (lastValue(req.headers['x-forwarded-for']) ?? remote) : remote;
    const host = trustProxy
      ? (firstValue(req.headers['x-forwarded-host']) ?? req.headers.host)
      : req.headers.host;
    req.headers['x-forwarded-for'] = client;
    req.headers['x-forwarded-proto'] = proto;
    if (host) req.headers['x-forwarded-host'] = host;
    else delete req.headers['x-forwarded-host'];
  }

  /** The name the client addressed: behind a trusted proxy, the one it forwarded. */
  function requestedHost(req: IncomingMessage): string | undefined {
    if (trustProxy) return firstValue(req.headers['x-forwarded-host']) ?? req.headers.host;
    return req.headers.host;
  }

  function hostAccepted(req: IncomingMessage, pathname: string | undefined): boolean {
    if (pathname !== undefined && PROBE_ENDPOINTS.has(pathname)) return true;
    // A scraper reaches /metrics by pod address too; with a token required, a rebinding page cannot read it.
    if (pathname === '/metrics' && metricsAuthorization !== undefined) return true;
    return hostPolicy.accepts(requestedHost(req));
  }

  function trackCompletion(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    requestId: string,
    started: number,
    service: () => string,
  ): void {
    res.once('close', () => {
      const ms = performance.now() - started;
      // 499: the client went away before an answer was complete (nginx's convention).
      const status = res.writableFinished ? res.statusCode : 499;
      const label = service();
      metrics.observe(label, status, ms / 1000);
      const entry = {
        method: req.method,
        path: pathname,
        status,
        ms: Math.round(ms * 10) / 10,
        requestId,
        service: label,
        upstream: states.get(req)?.replica?.url,
      };
      if (label === 'gateway') logger.debug(entry, 'request');
      else logger.info(entry, 'request');
    });
  }

  function handleRequest(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void {
    const started = performance.now();
    const requestId = assignRequestId(req);
    res.setHeader(Headers.requestId, requestId);
    const proto = resolveProto(req);
    applySecurityHeaders(res, proto === 'https');
    // While shutting down, tell keep-alive clients to reconnect (to another instance) after this answer.
    if (closing) res.setHeader('Connection', 'close');

    const pathname = pathOf(req.url);
    let service = 'none';
    trackCompletion(req, res, pathname ?? String(req.url), requestId, started, () => service);

    if (!hostAccepted(req, pathname)) {
      sendJsonError(res, 421, 'Unknown host');
      return;
    }
    if (pathname === undefined || hasParentSegment(pathname)) {
      sendJsonError(res, 400, 'Invalid path');
      return;
    }
    if (OWN_ENDPOINTS.has(pathname)) {
      service = 'gateway';
      void answerOwnEndpoint(req, res, pathname);
      return;
    }
    if (pathname === API_DOCS_PATH || pathname === API_DOCS_JSON_PATH) {
      service = 'gateway';
      answerApiDocs(req, res, pathname).catch((err: unknown) => {
        logger.error({ err, requestId }, 'API reference failed');
        if (!res.headersSent) sendJsonError(res, 500, 'Internal server error');
      });
      return;
    }
    const route = matchRoute(pathname, routes);
    if (!route) {
      if (isApiPath(pathname)) {
        sendJsonError(res, 404, 'Not found');
        return;
      }
      service = 'web';
      serveWeb(req, res, pathname).catch((err: unknown) => {
        logger.error({ err, requestId }, 'static file error');
        if (!res.headersSent) sendJsonError(res, 500, 'Internal server error');
        else res.destroy();
      });
      return;
    }
    service = route.service;
    proxyRequest(req, res, route, proto, expectsContinue);
  }

  /** `/api/docs` (the page) and `/api/docs/openapi.json` (the merged OpenAPI document). */
  async function answerApiDocs(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJsonError(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const doc = await apiDocs.document();
    if (pathname === API_DOCS_JSON_PATH) {
      sendJson(res, 200, doc, { 'Cache-Control': 'no-cache' });
      return;
    }
    const html = renderDocsPage(doc);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Length', Buffer.byteLength(html));
    res.end(req.method === 'HEAD' ? undefined : html);
  }

  /** The SPA; a lesson's page gets its title, description and preview tags from the service owning the posts. */
  async function serveWeb(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<number> {
    const slug = req.method === 'GET' || req.method === 'HEAD' ? blogSlugOf(pathname) : undefined;
    if (slug === undefined) return staticSite.handle(req, res, pathname);
    const found = await postPageMeta.lookup(slug, req);
    if (found.kind === 'found')
      return staticSite.sendIndex(req, res, (html) => injectHead(html, renderHeadTags(found.meta)));
    if (found.kind === 'missing')
      return staticSite.sendIndex(req, res, (html) => injectHead(html, NOINDEX_TAG), 404);
    return staticSite.handle(req, res, pathname);
  }

  function proxyRequest(
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    proto: string,
    expectsContinue: boolean,
  ): void {
    if (isStateChanging(req.method) && !originPolicy.accepts(req)) {
      sendJsonError(res, 403, 'Cross-origin request refused');
      return;
    }
    const limit = route.bodyLimit === 'upload' ? uploadLimit : defaultLimit;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      refuseTooLarge(res, limit);
      return;
    }
    const pool = pools.get(route.service) as UpstreamPool;
    const connection = req.headers.connection;
    for (const name of STRIPPED_REQUEST_HEADERS) delete req.headers[name];
    setForwardedHeaders(req, proto);
    const state: ProxyState = {
      route,
      res,
      pool,
      limit,
      tried: new Set(),
      attempts: 0,
      bodyBytes: 0,
      counting: false,
      settled: false,
      gotResponse: false,
      timedOut: false,
      clientConnection: connection,
    };
    states.set(req, state);
    res.once('close', () => {
      // The client left: stop the upstream work too.
      if (!res.writableFinished) state.proxyReq?.destroy();
    });
    if (expectsContinue) res.writeContinue();
    dispatch(req, res, state);
  }

  function refuseTooLarge(res: ServerResponse, limit: number): void {
    // The rest of the body is not read: close the connection instead of leaving it in an unknown state.
    sendJsonError(res, 413, `The request body is too large. The limit is ${formatBytes(limit)}.`, {
      Connection: 'close',
    });
  }

  function dispatch(req: IncomingMessage, res: ServerResponse, state: ProxyState): void {
    const replica = state.pool.pick(state.tried);
    if (!replica) {
      sendJsonError(res, 503, unavailableMessage(state.route.service), { 'Retry-After': retryAfter });
      return;
    }
    state.replica = replica;
    state.tried.add(replica);
    state.attempts += 1;
    state.gotResponse = false;
    state.proxyReq = undefined;
    const proxy = proxies.get(state.route.service) as RequestHandler;
    void proxy(req, res);
  }

  /** Runs synchronously right before http-proxy pipes the body upstream: the moment to start counting it. */
  function onProxyStart(req: IncomingMessage): void {
    const state = states.get(req);
    if (!state || state.counting) return;
    state.counting = true;
    const onData = (chunk: Buffer) => {
      state.bodyBytes += chunk.length;
      if (state.bodyBytes <= state.limit || state.settled) return;
      state.settled = true;
      req.off('data', onData);
      req.unpipe();
      state.proxyReq?.destroy();
      const res = state.res;
      if (res && !res.headersSent) refuseTooLarge(res, state.limit);
      else res?.destroy();
      // Discard what is still arriving until the connection closes after the 413.
      req.resume();
    };
    req.on('data', onData);
  }

  function onProxyReq(proxyReq: ClientRequest, req: IncomingMessage): void {
    const state = states.get(req);
    if (!state) return;
    state.proxyReq = proxyReq;
    if (state.settled) {
      proxyReq.destroy();
      return;
    }
    proxyReq.setTimeout(upstreamTimeoutMs, () => {
      state.timedOut = true;
      proxyReq.destroy(new UpstreamTimeoutError('upstream timed out'));
    });
  }

  function onProxyRes(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse): void {
    const state = states.get(req);
    if (state) {
      state.gotResponse = true;
      // Let http-proxy mirror the client's own keep-alive wish, not the upstream connection's.
      if (state.clientConnection !== undefined) req.headers.connection = state.clientConnection;
      if (closing) req.headers.connection = 'close';
    }
    delete proxyRes.headers.connection;
    delete proxyRes.headers['keep-alive'];
    proxyRes.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableEnded) proxyRes.destroy();
    });
  }

  function onProxyError(err: Error, req: IncomingMessage, target: ServerResponse | Duplex): void {
    const state = states.get(req);
    if (!(target instanceof http.ServerResponse)) {
      onUpgradeError(err, req, target, state);
      return;
    }
    const res = target;
    if (!state || state.settled) return;
    const replica = state.replica;
    const stale = isResetError(err) && !state.gotResponse && state.proxyReq?.reusedSocket === true;
    const refused = isConnectError(err);
    if (replica && refused) state.pool.markFailed(replica);
    if (replica && isResetError(err) && !stale && !state.gotResponse) state.pool.markFailed(replica);
    if (replica && stale) state.tried.delete(replica);

    const canRetry =
      !res.headersSent &&
      !state.gotResponse &&
      IDEMPOTENT_METHODS.has(req.method ?? '') &&
      (refused || isResetError(err)) &&
      state.attempts <= state.pool.replicas.length;
    if (canRetry) {
      logger.debug(
        { err, service: state.route.service, replica: replica?.url },
        'retrying on another replica',
      );
      dispatch(req, res, state);
      return;
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const service = state.route.service;
    if (state.timedOut) {
      sendJsonError(res, 504, `The ${service} service took too long to answer. Please try again.`);
    } else if (refused) {
      sendJsonError(res, 503, unavailableMessage(service), { 'Retry-After': retryAfter });
    } else {
      logger.warn(
        { err, service, replica: replica?.url, requestId: req.headers[Headers.requestId] },
        'proxy error',
      );
      sendJsonError(res, 502, `The ${service} service could not answer. Please try again.`);
    }
  }

  // ---- WebSocket upgrades ----

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const started = performance.now();
    const requestId = assignRequestId(req);
    const pathname = pathOf(req.url);
    socket.on('error', () => undefined);
    const label = websocketService ?? 'none';
    const log = (status: number) => {
      const ms = performance.now() - started;
      metrics.observe(label, status, ms / 1000);
      logger.info(
        {
          method: req.method,
          path: pathname,
          status,
          ms: Math.round(ms * 10) / 10,
          requestId,
          service: label,
        },
        'upgrade',
      );
    };
    const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
      rejectUpgrade(socket, status, message, requestId, headers);
      log(status);
    };
    if (closing) return refuse(503, unavailableMessage(websocketService), { 'Retry-After': retryAfter });
    if (!hostPolicy.accepts(requestedHost(req))) return refuse(421, 'Unknown host');
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
      return refuse(400, 'Only WebSocket upgrades are accepted');
    if (pathname !== WEBSOCKET_PATH || websocketService === undefined) return refuse(404, 'Not found');
    if (!originPolicy.accepts(req)) return refuse(403, 'Cross-origin request refused');
    const pool = pools.get(websocketService) as UpstreamPool;
    const replica = pool.pick();
    if (!replica) return refuse(503, unavailableMessage(websocketService), { 'Retry-After': retryAfter });

    setForwardedHeaders(req, resolveProto(req));
    for (const name of ['forwarded', 'x-forwarded-port', 'x-real-ip']) delete req.headers[name];
    const route = matchRoute(WEBSOCKET_PATH, routes) as Route;
    states.set(req, {
      route,
      pool,
      limit: 0,
      tried: new Set([replica]),
      replica,
      attempts: 1,
      bodyBytes: 0,
      counting: true,
      settled: false,
      gotResponse: false,
      timedOut: false,
    });
    upgradedSockets.add(socket);
    socket.once('close', () => upgradedSockets.delete(socket));
    (req as IncomingMessage & { upgradeLog?: (status: number) => void }).upgradeLog = log;
    (proxies.get(websocketService) as RequestHandler).upgrade(req, socket as Socket, head);
  }

  function onProxyReqWs(proxyReq: ClientRequest, req: IncomingMessage): void {
    const state = states.get(req);
    if (state) state.proxyReq = proxyReq;
    const log = (req as IncomingMessage & { upgradeLog?: (status: number) => void }).upgradeLog;
    proxyReq.once('upgrade', () => log?.(101));
    proxyReq.once('response', (upstreamRes: IncomingMessage) => log?.(upstreamRes.statusCode ?? 502));
  }

  function onUpgradeError(
    err: Error,
    req: IncomingMessage,
    socket: Duplex,
    state: ProxyState | undefined,
  ): void {
    const log = (req as IncomingMessage & { upgradeLog?: (status: number) => void }).upgradeLog;
    if (
      state?.replica &&
      (isConnectError(err) || (isResetError(err) && state.proxyReq?.reusedSocket !== true))
    ) {
      state.pool.markFailed(state.replica);
    }
    const requestId = String(req.headers[Headers.requestId] ?? '');
    const service = state?.route.service;
    if (isConnectError(err)) {
      rejectUpgrade(socket, 503, unavailableMessage(service), requestId, { 'Retry-After': retryAfter });
      log?.(503);
    } else {
      rejectUpgrade(
        socket,
        502,
        `The ${service ?? 'requested'} service could not answer. Please try again.`,
        requestId,
      );
      log?.(502);
    }
  }

  // ---- the gateway's own endpoints ----

  function upstreamStatus(): Record<string, ReplicaStatus[]> {
    const result: Record<string, ReplicaStatus[]> = {};
    for (const [service, pool] of pools) result[service] = pool.status();
    return result;
  }

  async function answerOwnEndpoint(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
  ): Promise<void> {
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
      const ready = isReady();
      // Counts only: the replicas' addresses are internal and this endpoint answers anyone.
      const services: Record<string, { available: number; total: number }> = {};
      for (const [service, pool] of pools) {
        services[service] = { available: pool.availableCount(), total: pool.replicas.length };
      }
      sendJson(
        res,
        ready ? 200 : 503,
        { status: ready ? 'ready' : closing ? 'stopping' : 'starting', services },
        noStore,
      );
      return;
    }
    if (metricsAuthorization === undefined && !metricsOpenWithoutToken) {
      sendJsonError(res, 403, METRICS_TOKEN_NEEDED);
      return;
    }
    if (metricsAuthorization !== undefined && !authorizationMatches(req.headers.authorization)) {
      sendJsonError(res, 401, 'A valid metrics token is required', { 'WWW-Authenticate': 'Bearer' });
      return;
    }
    try {
      const body = await metrics.render();
      res.statusCode = 200;
      res.setHeader('Content-Type', metrics.contentType());
      res.setHeader('Cache-Control', 'no-store');
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      logger.error({ err }, 'metrics rendering failed');
      sendJsonError(res, 500, 'Internal server error');
    }
  }

  function authorizationMatches(header: string | undefined): boolean {
    return (
      typeof header === 'string' &&
      metricsAuthorization !== undefined &&
      timingSafeEqual(digest(header), metricsAuthorization)
    );
  }

  function isReady(): boolean {
    return server.listening && !closing;
  }

  function listen(port: number, host?: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      server.once('error', onError);
      server.listen(port, host, () => {
        server.off('error', onError);
        const address = server.address() as AddressInfo;
        logger.info({ port: address.port, host: address.address }, 'gateway listening');
        metricsOpenWithoutToken = isLoopbackAddress(address.address);
        if (metricsAuthorization === undefined && !metricsOpenWithoutToken) {
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
      for (const pool of pools.values()) pool.stopHealthChecks();
      for (const socket of upgradedSockets) socket.destroy();
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
      for (const pool of pools.values()) pool.close();
    })();
    return closePromise;
  }

  return { server, metrics, listen, close, isReady, upstreamStatus };
}
