import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createProxyMiddleware, type RequestHandler } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { Headers } from '@district/contracts';
import { rejectUpgrade, sendJsonError } from './json-response';
import type { GatewayService, Route } from './routes';
import { Replica, UpstreamPool, isConnectError, isResetError, type ReplicaStatus } from './upstream-pool';

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
  /** An upgrade's client socket and its access-log line, written once the upstream answered. */
  socket?: Duplex;
  logUpgrade?: (status: number) => void;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

class UpstreamTimeoutError extends Error {
  readonly code = 'EGATEWAYTIMEOUT';
}

function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (Number.isInteger(mb)) return `${mb} MB`;
  const kb = bytes / 1024;
  return Number.isInteger(kb) ? `${kb} KB` : `${bytes} bytes`;
}

export function unavailableMessage(service: string | undefined): string {
  return `The ${service ?? 'requested'} service is not available right now. Please try again shortly.`;
}

/** The 504 of an upstream silent for `upstreamTimeoutMs`, proxied or handed over in-process. */
export function tooSlowMessage(service: string): string {
  return `The ${service} service took too long to answer. Please try again.`;
}

export function refuseTooLarge(res: ServerResponse, limit: number): void {
  // The rest of the body is not read: close the connection instead of leaving it in an unknown state.
  sendJsonError(res, 413, `The request body is too large. The limit is ${formatBytes(limit)}.`, {
    Connection: 'close',
  });
}

export interface ServiceProxiesOptions {
  services: readonly GatewayService[];
  upstreams: Readonly<Record<string, readonly string[]>>;
  logger: Logger;
  passiveDownMs: number;
  healthCheckIntervalMs?: number;
  upstreamTimeoutMs: number;
  /** The gateway is shutting down: answers ask keep-alive clients to reconnect elsewhere. */
  isClosing(): boolean;
}

/**
 * Each service's replica pool and its http-proxy instance: picking a live replica, retrying idempotent requests
 * on the next one, counting streamed bodies against the limit, the upstream timeout, and turning upstream
 * failures into the platform's error answers. Which request goes where is decided before (the proxy handler,
 * the upgrade path).
 */
export class ServiceProxies {
  readonly pools = new Map<string, UpstreamPool>();
  /** `Retry-After` of a 503: about when a replica marked down is tried again. */
  readonly retryAfter: string;
  private readonly proxies = new Map<string, RequestHandler>();
  private readonly states = new WeakMap<IncomingMessage, ProxyState>();
  private readonly logger: Logger;

  constructor(private readonly options: ServiceProxiesOptions) {
    this.logger = options.logger;
    this.retryAfter = String(Math.max(1, Math.ceil(options.passiveDownMs / 1000)));
    for (const { name: service } of options.services) {
      const pool = new UpstreamPool(service, options.upstreams[service] ?? [], {
        passiveDownMs: options.passiveDownMs,
        healthCheckIntervalMs: options.healthCheckIntervalMs,
        onStatusChange: (replica, up) => {
          this.logger.warn(
            { service, replica: replica.url, up },
            up ? 'upstream replica is back' : 'upstream replica is down',
          );
        },
      });
      this.pools.set(service, pool);
      this.proxies.set(service, this.createServiceProxy(pool));
    }
  }

  /** The replica a request was sent to (for the access log). */
  upstreamOf(req: IncomingMessage): string | undefined {
    return this.states.get(req)?.replica?.url;
  }

  status(): Record<string, ReplicaStatus[]> {
    const result: Record<string, ReplicaStatus[]> = {};
    for (const [service, pool] of this.pools) result[service] = pool.status();
    return result;
  }

  stopHealthChecks(): void {
    for (const pool of this.pools.values()) pool.stopHealthChecks();
  }

  close(): void {
    for (const pool of this.pools.values()) pool.close();
  }

  /** Sends a request that passed every check to a live replica of its route's service. */
  forward(
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    limit: number,
    clientConnection?: string,
  ): void {
    const state: ProxyState = {
      route,
      res,
      pool: this.pools.get(route.service) as UpstreamPool,
      limit,
      tried: new Set(),
      attempts: 0,
      bodyBytes: 0,
      counting: false,
      settled: false,
      gotResponse: false,
      timedOut: false,
      clientConnection,
    };
    this.states.set(req, state);
    res.once('close', () => {
      // The client left: stop the upstream work too.
      if (!res.writableFinished) state.proxyReq?.destroy();
    });
    this.dispatch(req, res, state);
  }

  /** Hands an accepted upgrade to `replica`; `log` writes its access line once the upstream answered. */
  upgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    route: Route,
    replica: Replica,
    log: (status: number) => void,
  ): void {
    this.states.set(req, {
      route,
      pool: this.pools.get(route.service) as UpstreamPool,
      limit: 0,
      tried: new Set([replica]),
      replica,
      attempts: 1,
      bodyBytes: 0,
      counting: true,
      settled: false,
      gotResponse: false,
      timedOut: false,
      socket,
      logUpgrade: log,
    });
    (this.proxies.get(route.service) as RequestHandler).upgrade(req, socket as Socket, head);
  }

  private createServiceProxy(pool: UpstreamPool): RequestHandler {
    return createProxyMiddleware<IncomingMessage, ServerResponse>({
      // A parsed URL, so http-proxy does not parse the target string again on every request.
      router: (req) => this.states.get(req)?.replica?.target,
      agent: pool.agent,
      // The Host header stays the public one, so services build correct absolute URLs and cookies.
      changeOrigin: false,
      xfwd: false,
      // The default plugins log through console and answer errors in plain text; ours are below.
      ejectPlugins: true,
      plugins: [
        (proxyServer) => {
          proxyServer.on('start', (req) => this.onProxyStart(req));
          proxyServer.on('proxyReq', (proxyReq, req) => this.onProxyReq(proxyReq, req));
          proxyServer.on('proxyRes', (proxyRes, req, res) => this.onProxyRes(proxyRes, req, res));
          proxyServer.on('error', (err, req, res) => this.onProxyError(err, req, res));
          proxyServer.on('econnreset', () => undefined);
          proxyServer.on('proxyReqWs', (proxyReq, req) => this.onProxyReqWs(proxyReq, req));
          proxyServer.on('open', (proxySocket) => proxySocket.on('error', () => undefined));
        },
      ],
    });
  }

  private dispatch(req: IncomingMessage, res: ServerResponse, state: ProxyState): void {
    const replica = state.pool.pick(state.tried);
    if (!replica) {
      sendJsonError(res, 503, unavailableMessage(state.route.service), { 'Retry-After': this.retryAfter });
      return;
    }
    state.replica = replica;
    state.tried.add(replica);
    state.attempts += 1;
    state.gotResponse = false;
    state.proxyReq = undefined;
    const proxy = this.proxies.get(state.route.service) as RequestHandler;
    void proxy(req, res);
  }

  /** Runs synchronously right before http-proxy pipes the body upstream: the moment to start counting it. */
  private onProxyStart(req: IncomingMessage): void {
    const state = this.states.get(req);
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

  private onProxyReq(proxyReq: ClientRequest, req: IncomingMessage): void {
    const state = this.states.get(req);
    if (!state) return;
    state.proxyReq = proxyReq;
    if (state.settled) {
      proxyReq.destroy();
      return;
    }
    proxyReq.setTimeout(this.options.upstreamTimeoutMs, () => {
      state.timedOut = true;
      proxyReq.destroy(new UpstreamTimeoutError('upstream timed out'));
    });
  }

  private onProxyRes(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse): void {
    const state = this.states.get(req);
    if (state) {
      state.gotResponse = true;
      // Let http-proxy mirror the client's own keep-alive wish, not the upstream connection's.
      if (state.clientConnection !== undefined) req.headers.connection = state.clientConnection;
      if (this.options.isClosing()) req.headers.connection = 'close';
    }
    delete proxyRes.headers.connection;
    delete proxyRes.headers['keep-alive'];
    proxyRes.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableEnded) proxyRes.destroy();
    });
  }

  private onProxyError(err: Error, req: IncomingMessage, target: ServerResponse | Duplex): void {
    const state = this.states.get(req);
    if (!(target instanceof http.ServerResponse)) {
      this.onUpgradeError(err, req, target, state);
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
      this.logger.debug(
        { err, service: state.route.service, replica: replica?.url },
        'retrying on another replica',
      );
      this.dispatch(req, res, state);
      return;
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const service = state.route.service;
    if (state.timedOut) {
      sendJsonError(res, 504, tooSlowMessage(service));
    } else if (refused) {
      sendJsonError(res, 503, unavailableMessage(service), { 'Retry-After': this.retryAfter });
    } else {
      this.logger.warn(
        { err, service, replica: replica?.url, requestId: req.headers[Headers.requestId] },
        'proxy error',
      );
      sendJsonError(res, 502, `The ${service} service could not answer. Please try again.`);
    }
  }

  private onProxyReqWs(proxyReq: ClientRequest, req: IncomingMessage): void {
    const state = this.states.get(req);
    if (!state) return;
    state.proxyReq = proxyReq;
    proxyReq.once('upgrade', (_res: IncomingMessage, proxySocket: Duplex) => {
      state.gotResponse = true;
      state.logUpgrade?.(101);
      // Either side going ends the other. http-proxy passes on an end or an error, not a plain destroy (the
      // gateway's shutdown, a timeout); a half-open WebSocket would hold a chat seat and a socket.
      const client = state.socket;
      if (!client) return;
      client.once('close', () => proxySocket.destroy());
      proxySocket.once('close', () => client.destroy());
    });
    proxyReq.once('response', (upstreamRes: IncomingMessage) =>
      state.logUpgrade?.(upstreamRes.statusCode ?? 502),
    );
  }

  private onUpgradeError(
    err: Error,
    req: IncomingMessage,
    socket: Duplex,
    state: ProxyState | undefined,
  ): void {
    // After the 101 the socket carries WebSocket frames: no HTTP answer fits, the connection just ends.
    if (state?.gotResponse) {
      socket.destroy();
      return;
    }
    if (
      state?.replica &&
      (isConnectError(err) || (isResetError(err) && state.proxyReq?.reusedSocket !== true))
    ) {
      state.pool.markFailed(state.replica);
    }
    const requestId = String(req.headers[Headers.requestId] ?? '');
    const service = state?.route.service;
    if (isConnectError(err)) {
      rejectUpgrade(socket, 503, unavailableMessage(service), requestId, { 'Retry-After': this.retryAfter });
      state?.logUpgrade?.(503);
    } else {
      rejectUpgrade(
        socket,
        502,
        `The ${service ?? 'requested'} service could not answer. Please try again.`,
        requestId,
      );
      state?.logUpgrade?.(502);
    }
  }
}
