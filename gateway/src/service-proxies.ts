import { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough, type Duplex } from 'node:stream';
import { createProxyServer, type ProxyServer } from 'httpxy';
import type { Logger } from 'pino';
import { Headers } from '@district/contracts';
import { rejectUpgrade, sendJsonError } from './json-response';
import type { GatewayService, Route } from './routes';
import { dispatchUpstream, type DispatchOutcome, type UpstreamExchange } from './upstream-dispatch';
import { Replica, UpstreamPool, isConnectError, isResetError, type ReplicaStatus } from './upstream-pool';

/** What the gateway knows about one proxied request while it is in flight. */
interface ProxyState {
  readonly route: Route;
  readonly pool: UpstreamPool;
  readonly tried: Set<Replica>;
  replica?: Replica;
  attempts: number;
  /** The gateway has answered on its own (413), or the client left: late upstream events are ignored. */
  settled: boolean;
}

/** A proxied HTTP request (undici). */
interface WebState extends ProxyState {
  readonly res: ServerResponse;
  readonly limit: number;
  /**
   * What goes upstream as the body: none, the client's bytes (a small declared length: kept, so a replica that
   * refused the connection can be replaced by another), the client's stream (a larger declared length), or a
   * counted copy (chunked).
   */
  body: Buffer | PassThrough | IncomingMessage | null;
  bodyBytes: number;
  exchange?: UpstreamExchange;
  /** A read already went again to a replica whose pooled connection failed (it may just have been closed). */
  retriedStale: boolean;
}

/** A WebSocket upgrade (httpxy). */
interface UpgradeState extends ProxyState {
  readonly socket: Duplex;
  proxyReq?: ClientRequest;
  gotResponse: boolean;
  /** Writes the upgrade's access-log line once the upstream answered. */
  readonly logUpgrade: (status: number) => void;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Bodies up to this size (every JSON call; not uploads) are read before they are sent, so a write that met a
 * killed replica's refused connection goes to another replica instead of failing (issue #14 §3, ADR 0022).
 */
export const REPLAYABLE_BODY_BYTES = 64 * 1024;

/** undici's: no answer, or no more of it, within `upstreamTimeoutMs`. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** undici's: the connection closed or broke under the request. */
const SOCKET_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
/** httpxy's: the replica did not answer an upgrade within `upgradeTimeout`. */
const UPGRADE_TIMEOUT_CODE = 'ERR_UPSTREAM_UPGRADE_TIMEOUT';

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code ?? '';

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
 * Each service's replica pool: picking a live replica, retrying reads on the next one, counting streamed bodies
 * against the limit, the upstream timeout, and turning upstream failures into the platform's error answers.
 * HTTP requests go over undici (`upstream-dispatch.ts`), WebSocket upgrades over httpxy. Which request goes
 * where is decided before (the proxy handler, the upgrade path).
 */
export class ServiceProxies {
  readonly pools = new Map<string, UpstreamPool>();
  /** `Retry-After` of a 503: about when a replica marked down is tried again. */
  readonly retryAfter: string;
  /** Relays accepted upgrades; the replica and its service's agent are given per upgrade. */
  private readonly relay: ProxyServer;
  private readonly states = new WeakMap<IncomingMessage, WebState | UpgradeState>();
  private readonly logger: Logger;

  constructor(private readonly options: ServiceProxiesOptions) {
    this.logger = options.logger;
    this.retryAfter = String(Math.max(1, Math.ceil(options.passiveDownMs / 1000)));
    for (const { name: service } of options.services) {
      const pool = new UpstreamPool(service, options.upstreams[service] ?? [], {
        passiveDownMs: options.passiveDownMs,
        healthCheckIntervalMs: options.healthCheckIntervalMs,
        requestTimeoutMs: options.upstreamTimeoutMs,
        onStatusChange: (replica, up, reason) => {
          // `target`, not `service`: the gateway's logger already says `service: gateway`.
          if (reason)
            this.logger.error(
              { target: service, replica: replica.url, up, reason },
              'upstream replica does not name its service: not routed to',
            );
          else
            this.logger.warn(
              { target: service, replica: replica.url, up },
              up ? 'upstream replica is back' : 'upstream replica is down',
            );
        },
      });
      this.pools.set(service, pool);
    }
    this.relay = this.createRelay();
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
  forward(req: IncomingMessage, res: ServerResponse, route: Route, limit: number): void {
    const state: WebState = {
      route,
      res,
      pool: this.pools.get(route.service) as UpstreamPool,
      limit,
      tried: new Set(),
      attempts: 0,
      settled: false,
      body: null,
      bodyBytes: 0,
      retriedStale: false,
    };
    this.states.set(req, state);
    res.once('close', () => {
      // The client left: stop the upstream work too.
      if (res.writableFinished) return;
      state.settled = true;
      state.exchange?.abort(new Error('the client closed the connection'));
    });
    const headers = req.headers;
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (length > 0 && length <= REPLAYABLE_BODY_BYTES) {
        this.readWhole(req, state, length);
        return;
      }
      if (headers['content-length'] !== '0') state.body = req;
    } else if (headers['transfer-encoding'] !== undefined) {
      // A body of unknown length: counted against the limit as it passes (undici sends it chunked again).
      delete headers['transfer-encoding'];
      state.body = this.countedBody(req, state);
    }
    this.dispatch(req, state);
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
      tried: new Set([replica]),
      replica,
      attempts: 1,
      settled: false,
      gotResponse: false,
      socket,
      logUpgrade: log,
    });
    // Options given here are overridden by the relay's own, which therefore set neither target nor agent.
    // The target is the replica's parsed URL, so it is not parsed again on every upgrade.
    this.relay
      .ws(
        req,
        socket as Socket,
        {
          target: replica.target,
          agent: this.pools.get(route.service)?.agent,
          // A replica that takes the connection and never answers the handshake gets a 504, as a request would.
          upgradeTimeout: this.options.upstreamTimeoutMs,
        },
        head,
      )
      .catch((err: unknown) => this.logger.warn({ err, target: route.service }, 'upgrade relay failed'));
  }

  private createRelay(): ProxyServer {
    const relay = createProxyServer({
      // The Host header stays the public one, so services build correct absolute URLs and cookies.
      changeOrigin: false,
      // The upgrade path has set the forwarded headers already (Forwarding).
      xfwd: false,
    });
    // With an error listener, httpxy reports every failure there instead of rejecting or throwing.
    relay.on('error', (err, req, socket) => {
      if (req) this.onUpgradeError(err, req as IncomingMessage, socket as Duplex);
    });
    relay.on('econnreset', () => undefined);
    relay.on('proxyReqWs', (proxyReq, req) => this.onProxyReqWs(proxyReq, req));
    relay.on('open', (proxySocket) => proxySocket.on('error', () => undefined));
    return relay;
  }

  private dispatch(req: IncomingMessage, state: WebState): void {
    const { res } = state;
    const replica = state.pool.pick(state.tried);
    if (!replica?.dispatcher) {
      discardCopy(state);
      sendJsonError(res, 503, unavailableMessage(state.route.service), { 'Retry-After': this.retryAfter });
      return;
    }
    state.replica = replica;
    state.tried.add(replica);
    state.attempts += 1;
    state.exchange = dispatchUpstream(replica.dispatcher, req, res, state.body, (err, outcome) =>
      this.onDispatchError(err, outcome, req, state),
    );
  }

  /** Reads a small body of declared length whole, then dispatches it (replayable on a refused connection). */
  private readWhole(req: IncomingMessage, state: WebState, length: number): void {
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      // Node's parser never delivers more than the declared length; kept as a guard all the same.
      if (received <= length) chunks.push(chunk);
    });
    req.once('end', () => {
      if (state.settled) return;
      state.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      this.dispatch(req, state);
    });
    // The client's connection broke before its body arrived: nothing to answer.
    req.once('error', () => (state.settled = true));
  }

  /**
   * A body without a declared length, passed on through a stream the gateway feeds, so it can stop it past the
   * limit with its own 413 (the connection then closes, as the rest of the body is not read).
   */
  private countedBody(req: IncomingMessage, state: WebState): PassThrough {
    const body = new PassThrough();
    req.on('data', (chunk: Buffer) => {
      if (state.settled) return;
      state.bodyBytes += chunk.length;
      if (state.bodyBytes > state.limit) {
        state.settled = true;
        state.exchange?.abort(new Error('the request body is over the limit'));
        body.destroy();
        if (!state.res.headersSent) refuseTooLarge(state.res, state.limit);
        else state.res.destroy();
        // Discard what is still arriving until the connection closes after the 413.
        req.resume();
        return;
      }
      if (!body.write(chunk)) {
        req.pause();
        body.once('drain', () => req.resume());
      }
    });
    req.once('end', () => {
      if (!state.settled) body.end();
    });
    req.once('error', (err) => body.destroy(err));
    return body;
  }

  private onDispatchError(err: Error, outcome: DispatchOutcome, req: IncomingMessage, state: WebState): void {
    if (state.settled) return;
    const { res, replica } = state;
    if (outcome.answered || res.headersSent) {
      // Part of the answer has gone out: no other answer fits, the client sees the connection end.
      res.destroy();
      return;
    }
    const code = codeOf(err);
    const refused = isConnectError(err);
    const broken = SOCKET_CODES.has(code) || isResetError(err);
    if (replica && refused) state.pool.markFailed(replica);
    if (replica && broken) {
      // The first broken connection of a request may be a pooled one the replica had just closed: it may be
      // tried again; a second one means the replica is failing.
      if (state.retriedStale) state.pool.markFailed(replica);
      else state.tried.delete(replica);
    }
    // A refused connection never reached the replica: any request whose body can be sent again goes elsewhere.
    // A broken one may have: only a read without a body is sent again.
    const replayable = state.body === null || Buffer.isBuffer(state.body);
    const canRetry =
      ((refused && replayable) ||
        (broken && state.body === null && IDEMPOTENT_METHODS.has(req.method ?? ''))) &&
      state.attempts <= state.pool.replicas.length;
    if (broken) state.retriedStale = true;
    if (canRetry) {
      this.logger.debug(
        { err, target: state.route.service, replica: replica?.url },
        'retrying on another replica',
      );
      this.dispatch(req, state);
      return;
    }
    discardCopy(state);
    const service = state.route.service;
    if (TIMEOUT_CODES.has(code)) {
      sendJsonError(res, 504, tooSlowMessage(service));
    } else if (refused) {
      sendJsonError(res, 503, unavailableMessage(service), { 'Retry-After': this.retryAfter });
    } else {
      this.logger.warn(
        { err, target: service, replica: replica?.url, requestId: req.headers[Headers.requestId] },
        'proxy error',
      );
      sendJsonError(res, 502, `The ${service} service could not answer. Please try again.`);
    }
  }

  private onProxyReqWs(proxyReq: ClientRequest, req: IncomingMessage): void {
    const state = this.states.get(req);
    if (!state || !('socket' in state)) return;
    state.proxyReq = proxyReq;
    proxyReq.once('upgrade', (_res: IncomingMessage, proxySocket: Duplex) => {
      state.gotResponse = true;
      state.logUpgrade?.(101);
      // Either side going ends the other. httpxy passes on an end or an error, not a plain destroy (the
      // gateway's shutdown, a timeout); a half-open WebSocket would hold a chat seat and a socket.
      const client = state.socket;
      if (!client) return;
      client.once('close', () => proxySocket.destroy());
      proxySocket.once('close', () => client.destroy());
    });
    proxyReq.once('response', (upstreamRes: IncomingMessage) => {
      // The replica's own refusal goes to the client as it is: no answer of the gateway's may follow it.
      state.gotResponse = true;
      state.logUpgrade?.(upstreamRes.statusCode ?? 502);
    });
  }

  private onUpgradeError(err: Error, req: IncomingMessage, socket: Duplex): void {
    const found = this.states.get(req);
    const state = found && 'socket' in found ? found : undefined;
    // After the 101 the socket carries WebSocket frames: no HTTP answer fits, the connection just ends. The
    // same once the gateway has answered: httpxy may report a second error of the same upgrade (the upstream
    // request it ends after the first).
    if (state?.gotResponse || state?.settled) {
      socket.destroy();
      return;
    }
    if (state) state.settled = true;
    // The client's side failed first: nobody to answer, and nothing the replica did.
    if (socket.destroyed) {
      state?.logUpgrade?.(499);
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
    } else if (codeOf(err) === UPGRADE_TIMEOUT_CODE) {
      // Slow is not down: the replica stays in rotation (as undici's timeout of a request).
      rejectUpgrade(socket, 504, tooSlowMessage(service ?? 'requested'), requestId);
      state?.logUpgrade?.(504);
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

/** Drops the counted copy of a chunked body; the client's own stream is left to Node, which discards the rest. */
function discardCopy(state: WebState): void {
  if (state.body instanceof PassThrough) state.body.destroy();
}
