import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { IdentityMessages } from '@district/contracts';
import type { SessionCheck } from '@district/nest-common';
import type { AccessLog } from './access-log';
import type { Forwarding } from './forwarding';
import { rejectUpgrade } from './json-response';
import type { HostPolicy, OriginPolicy } from './origin-check';
import { assignRequestId } from './request-id';
import { WEBSOCKET_PATH, matchRoute, type Route } from './routes';
import { unavailableMessage, type ServiceProxies } from './service-proxies';

/** Checks a `Cookie` header's session (the launcher builds it from the platform's token and session state). */
export type UpgradeAuthenticator = (cookieHeader: string | undefined) => Promise<SessionCheck>;

const SESSION_STATE_RESTORING = 'Sign-in state is being restored. Please try again in a moment.';

function pathOf(url: string | undefined): string | undefined {
  if (url === undefined || url.charCodeAt(0) !== 47 /* '/' */) return undefined;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export interface UpgradeOptions {
  routes: readonly Route[];
  proxies: ServiceProxies;
  hostPolicy: HostPolicy;
  originPolicy: OriginPolicy;
  forwarding: Forwarding;
  accessLog: AccessLog;
  logger: Logger;
  authenticate?: UpgradeAuthenticator;
  isClosing(): boolean;
}

/**
 * The `/ws` upgrade (chat): the same Host and Origin checks as a request, then the session (401 before any
 * replica is contacted), then a live replica of the service that declares `/ws`. Either side closing closes
 * the other (ServiceProxies); every open one is cut when the gateway stops.
 */
export class UpgradeHandler {
  private readonly sockets = new Set<Duplex>();
  /** The service that declares /ws gets the upgrades; without one, an upgrade there is refused like any path. */
  private readonly route: Route | undefined;

  constructor(private readonly options: UpgradeOptions) {
    this.route = matchRoute(WEBSOCKET_PATH, options.routes);
  }

  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined);
    this.accept(req, socket, head).catch((err: unknown) => {
      this.options.logger.error({ err, requestId: req.headers['x-request-id'] }, 'upgrade failed');
      socket.destroy();
    });
  }

  /** Cuts every open WebSocket (shutdown). */
  closeAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  private async accept(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const { proxies, forwarding, isClosing } = this.options;
    const started = performance.now();
    const requestId = assignRequestId(req);
    const pathname = pathOf(req.url);
    const service = this.route?.service;
    const log = (status: number) =>
      this.options.accessLog.upgrade(req, pathname, requestId, service ?? 'none', started, status);
    const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
      rejectUpgrade(socket, status, message, requestId, headers);
      log(status);
    };
    const unavailable = () => refuse(503, unavailableMessage(service), { 'Retry-After': proxies.retryAfter });

    if (isClosing()) return unavailable();
    if (!this.options.hostPolicy.accepts(forwarding.requestedHost(req))) return refuse(421, 'Unknown host');
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
      return refuse(400, 'Only WebSocket upgrades are accepted');
    if (pathname !== WEBSOCKET_PATH || this.route === undefined) return refuse(404, 'Not found');
    if (!this.options.originPolicy.accepts(req)) return refuse(403, 'Cross-origin request refused');
    if (this.options.authenticate) {
      let session: SessionCheck;
      try {
        session = await this.options.authenticate(req.headers.cookie);
      } catch (err) {
        // The shared store did not answer: nothing can be decided, as with a store being restored.
        this.options.logger.warn({ err, requestId }, 'session check failed at upgrade');
        session = { status: 'unavailable' };
      }
      // The client may have gone, or the gateway begun to stop, while the session was read.
      if (socket.destroyed) return log(499);
      if (isClosing()) return unavailable();
      if (session.status === 'unavailable')
        return refuse(503, SESSION_STATE_RESTORING, { 'Retry-After': '1' });
      if (session.status !== 'valid') return refuse(401, IdentityMessages.authenticationRequired);
    }
    const replica = proxies.pools.get(this.route.service)?.pick();
    if (!replica) return unavailable();

    // The cookie travels on unchanged: the service re-verifies it (it needs the claims, not only an id).
    forwarding.setForwardedHeaders(req, forwarding.proto(req));
    for (const name of ['forwarded', 'x-forwarded-port', 'x-real-ip']) delete req.headers[name];
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    proxies.upgrade(req, socket, head, this.route, replica, log);
  }
}
