import 'reflect-metadata';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { parseArgs } from 'node:util';
import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { WsAdapter } from '@nestjs/platform-ws';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayDisconnect,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

/*
 * The Nest layer question of issue 11: the peers' bare `ws` reference protocol (bare-ws-server.mjs: join → joined,
 * message → the same object to every member, serialised once, 64 KB frames, no compression) served by a minimal
 * Nest application on Fastify (the platform's HTTP adapter), in one of two ways:
 *
 *   --mode gateway   `@WebSocketGateway` + `@SubscribeMessage` on `@nestjs/platform-ws`'s WsAdapter (the
 *                    framework's WebSocket layer: rxjs per frame, handler lookup, the message parser below);
 *   --mode plain     the plain `ws` server under Nest's dependency injection, attached to the HTTP server's
 *                    `upgrade` event by an injectable, as services/chat/src/live/live-gateway.ts does (ADR 0018).
 *
 * Same rooms, same fan-out loop as the bare reference in both, so the difference is the layer alone.
 * Prints `READY {"pid":…}` on stdout when listening; SIGTERM closes it.
 */

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '8090' },
    host: { type: 'string', default: '127.0.0.1' },
    mode: { type: 'string', default: 'gateway' },
  },
});
const MAX_PAYLOAD = 64 * 1024;

interface Member extends WebSocket {
  joined?: Set<string>;
}

/** The bare reference's rooms and fan-out, shared by both modes. */
class Rooms {
  private readonly rooms = new Map<string, Set<Member>>();

  join(ws: Member, room: unknown): { type: 'joined'; room: string } | undefined {
    if (typeof room !== 'string' || room.length > 200) return undefined;
    let set = this.rooms.get(room);
    if (!set) this.rooms.set(room, (set = new Set()));
    set.add(ws);
    (ws.joined ??= new Set()).add(room);
    return { type: 'joined', room };
  }

  message(ws: Member, msg: { room?: unknown; text?: unknown; seq?: unknown; sentAt?: unknown }): void {
    if (typeof msg.room !== 'string') return;
    const set = this.rooms.get(msg.room);
    if (!set || !set.has(ws)) return;
    const out = JSON.stringify({
      type: 'message',
      room: msg.room,
      text: String(msg.text ?? ''),
      seq: msg.seq,
      sentAt: msg.sentAt,
    });
    for (const client of set) if (client.readyState === WebSocket.OPEN) client.send(out);
  }

  leaveAll(ws: Member): void {
    for (const room of ws.joined ?? []) {
      const set = this.rooms.get(room);
      if (!set) continue;
      set.delete(ws);
      if (set.size === 0) this.rooms.delete(room);
    }
    ws.joined?.clear();
  }
}

const ROOMS = Symbol('ROOMS');

@WebSocketGateway({ path: '/', perMessageDeflate: false, maxPayload: MAX_PAYLOAD })
class ChatBenchGateway implements OnGatewayDisconnect {
  constructor(@Inject(ROOMS) private readonly rooms: Rooms) {}

  @SubscribeMessage('join')
  join(@ConnectedSocket() ws: Member, @MessageBody() msg: { room?: unknown }) {
    // The returned object is sent back to this client (WsAdapter: JSON.stringify of the handler's result).
    return this.rooms.join(ws, msg.room);
  }

  @SubscribeMessage('message')
  message(
    @ConnectedSocket() ws: Member,
    @MessageBody() msg: { room?: unknown; text?: unknown; seq?: unknown; sentAt?: unknown },
  ): void {
    this.rooms.message(ws, msg);
  }

  handleDisconnect(ws: Member): void {
    this.rooms.leaveAll(ws);
  }
}

@Injectable()
class PlainWsServer implements OnApplicationBootstrap {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD,
    perMessageDeflate: false,
    clientTracking: false,
  });

  constructor(
    @Inject(HttpAdapterHost) private readonly host: HttpAdapterHost,
    @Inject(ROOMS) private readonly rooms: Rooms,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.host.httpAdapter.getHttpServer() as Server;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => undefined);
      this.wss.handleUpgrade(req, socket, head, (ws) => this.connect(ws));
    });
  }

  private connect(ws: Member): void {
    ws.on('error', () => undefined);
    ws.on('close', () => this.rooms.leaveAll(ws));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return;
      let msg: { type?: unknown; room?: unknown; text?: unknown; seq?: unknown; sentAt?: unknown };
      try {
        msg = JSON.parse(data.toString()) as typeof msg;
      } catch {
        return;
      }
      if (msg.type === 'join') {
        const answer = this.rooms.join(ws, msg.room);
        if (answer) ws.send(JSON.stringify(answer));
      } else if (msg.type === 'message') this.rooms.message(ws, msg);
    });
  }
}

@Module({})
class BenchModule {
  static forMode(mode: string): DynamicModule {
    return {
      module: BenchModule,
      providers: [
        { provide: ROOMS, useValue: new Rooms() },
        mode === 'plain' ? PlainWsServer : ChatBenchGateway,
      ],
    };
  }
}

async function main(): Promise<void> {
  if (args.mode !== 'gateway' && args.mode !== 'plain')
    throw new Error(`--mode gateway|plain, not ${args.mode}`);
  const app = await NestFactory.create<NestFastifyApplication>(
    BenchModule.forMode(args.mode),
    new FastifyAdapter(),
    { logger: ['error', 'warn'] },
  );
  if (args.mode === 'gateway') {
    // The bare protocol's {type, …} frames: `type` is the event, the whole object the handler's body.
    app.useWebSocketAdapter(
      new WsAdapter(app, {
        messageParser: (data: unknown) => {
          const msg = JSON.parse(String(data)) as { type?: unknown };
          return typeof msg?.type === 'string' ? { event: msg.type, data: msg } : undefined;
        },
      }),
    );
  }
  app.enableShutdownHooks();
  await app.listen({ port: Number(args.port), host: args.host, backlog: 4096 });
  process.stdout.write(
    `READY ${JSON.stringify({ server: `nest-ws-${args.mode}`, port: Number(args.port), pid: process.pid })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
