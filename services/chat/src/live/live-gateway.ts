import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebSocketServer } from 'ws';
import { CHAT_FRAME_MAX_BYTES, CHAT_WS_PATH, IdentityMessages } from '@district/contracts';
import {
  OriginPolicy,
  PLATFORM_LOGGER,
  PLATFORM_RUNTIME,
  SESSION_COOKIE,
  SessionStateStore,
  TokenService,
  readCookie,
  type Logger,
  type PlatformRuntime,
} from '@district/nest-common';
import { chatRoleOf } from './chat-names';
import { ChatHub } from './chat-hub';
import { LIVE_CONFIG, type LiveConfig } from './live.config';
import type { LivePerson } from './live-connection';

/**
 * The `/ws` endpoint on the service's own HTTP server (ADR 0018: the plain `ws` server under Nest's dependency
 * injection). The upgrade is checked here whatever the gateway did: the path, the Origin (this site's pages only),
 * and the session cookie — signature, then the shared session state, as the HTTP guard does. The person's role
 * comes from the session; the client's `role` field is never read.
 */
@Injectable()
export class LiveGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: CHAT_FRAME_MAX_BYTES,
    // Off, and it must stay off: LiveConnection writes whole frames to the socket beside ws's own sender.
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly origins: OriginPolicy;

  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(ChatHub) private readonly hub: ChatHub,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
    @Inject(LIVE_CONFIG) config: LiveConfig,
    @Inject(PLATFORM_RUNTIME) runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {
    this.origins = new OriginPolicy(runtime.publicUrl, config.GATEWAY_ALLOWED_ORIGINS);
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as import('node:http').Server;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => undefined);
      this.accept(req, socket, head).catch((err: unknown) => {
        this.logger.error({ err }, 'chat upgrade failed');
        refuse(socket, 500, 'The chat could not start. Please try again.');
      });
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.hub.stop();
  }

  private async accept(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== CHAT_WS_PATH) return refuse(socket, 404, 'Not found');
    if (this.hub.isStopping)
      return refuse(socket, 503, 'The chat is restarting. Please try again in a moment.', {
        'Retry-After': '1',
      });
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
      return refuse(socket, 400, 'Only WebSocket upgrades are accepted');
    if (!this.origins.accepts(req)) return refuse(socket, 403, 'Cross-origin request refused');
    const claims = await this.tokens.verify(readCookie(req.headers.cookie, SESSION_COOKIE));
    if (!claims) return refuse(socket, 401, IdentityMessages.authenticationRequired);
    const id = claims.sub.toLowerCase();
    const state = await this.sessions.check(id, claims.tv, claims.sid);
    if (state === 'unknown')
      return refuse(socket, 503, 'Sign-in state is being restored. Please try again in a moment.', {
        'Retry-After': '1',
      });
    if (state !== 'valid') return refuse(socket, 401, IdentityMessages.authenticationRequired);
    if (socket.destroyed) return;
    const role = chatRoleOf(claims);
    const person: LivePerson = {
      id,
      role,
      approved: claims.approved,
      canModerate: role !== 'student',
      tokenVersion: claims.tv,
      sessionId: claims.sid,
      expiresAt: claims.exp * 1000,
    };
    this.wss.handleUpgrade(req, socket, head, (ws) => this.hub.connect(ws, socket, person));
  }
}

/** An HTTP answer on the raw socket of a refused upgrade, JSON like every other error of the platform. */
function refuse(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ statusCode: status, message });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
