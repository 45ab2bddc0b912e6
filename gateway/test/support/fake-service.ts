import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
  /** False when the gateway cut the body off (the request never completed). */
  complete: boolean;
}

export interface FakeService {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly requests: SeenRequest[];
  /** TCP connections accepted so far. */
  connections: number;
  /** The WebSockets open on this replica (its side), and the headers of every accepted upgrade. */
  readonly sockets: Set<WebSocket>;
  readonly upgrades: IncomingHttpHeaders[];
  /** What /readyz answers (the gateway routes by it; /healthz, liveness, always answers 200). */
  healthStatus: number;
  /** How long /readyz waits before answering (a replica busy with a burst). */
  healthDelayMs: number;
  /** The service /readyz and /healthz name (the gateway routes only to replicas naming theirs): the fake's name by default. */
  healthName: string | undefined;
  /** Handles a request instead of the default echo when it returns true. */
  override?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Stops listening and drops every open connection, as a crashed process would. */
  kill(): Promise<void>;
}

export interface FakeServiceOptions {
  /** Listen on this port (to bring a killed replica back on the same address). */
  port?: number;
  /** Accept WebSocket upgrades on /ws and echo messages back, prefixed with the service's label. */
  websocket?: boolean;
}

/**
 * A real HTTP server standing in for one replica of a service: it answers every request with JSON
 * describing what it received, so tests can see exactly what the gateway forwarded.
 */
export async function startFakeService(name: string, options: FakeServiceOptions = {}): Promise<FakeService> {
  const sockets = new Set<Socket>();
  const server = http.createServer();
  const service: FakeService = {
    name,
    url: '',
    port: 0,
    requests: [],
    sockets: new Set(),
    upgrades: [],
    connections: 0,
    healthStatus: 200,
    healthDelayMs: 0,
    healthName: name,
    kill: async () => {
      for (const socket of sockets) socket.destroy();
      wss?.clients.forEach((client) => client.terminate());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (socket: Socket) => {
    service.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/healthz') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'ok', service: service.healthName }));
      return;
    }
    if (req.url === '/readyz') {
      const answer = () => {
        const ready = service.healthStatus < 500;
        res.statusCode = service.healthStatus;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ status: ready ? 'ready' : 'not ready', service: service.healthName, ready }),
        );
      };
      if (service.healthDelayMs > 0) setTimeout(answer, service.healthDelayMs);
      else answer();
      return;
    }
    const seen: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      bodyBytes: 0,
      complete: false,
    };
    service.requests.push(seen);
    if (service.override?.(req, res)) return;
    req.on('data', (chunk: Buffer) => {
      seen.bodyBytes += chunk.length;
    });
    req.on('end', () => {
      seen.complete = true;
      const body = JSON.stringify({
        service: name,
        port: service.port,
        method: seen.method,
        url: seen.url,
        bodyBytes: seen.bodyBytes,
      });
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Content-Length', Buffer.byteLength(body));
      res.end(body);
    });
    req.on('error', () => undefined);
  });

  let wss: WebSocketServer | undefined;
  if (options.websocket) {
    wss = new WebSocketServer({ server, path: '/ws' });
    wss.on('connection', (ws, req) => {
      service.sockets.add(ws);
      service.upgrades.push(req.headers);
      ws.on('close', () => service.sockets.delete(ws));
      ws.send(
        `hello from ${name}:${service.port} origin=${req.headers.origin ?? ''} xff=${req.headers['x-forwarded-for'] ?? ''}`,
      );
      ws.on('message', (data) => ws.send(`${name} echo: ${String(data)}`));
    });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(service, { port, url: `http://127.0.0.1:${port}` });
}

/** A port nothing listens on: bound once to get a free number, then released. */
export async function unusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
