import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * A gateway in the same process (`--target=all`) hands a request to the service's own request listener after its
 * checks: no loopback HTTP hop (docs/adr/0016-request-path.md). `client` is the address the gateway decided the
 * request came from (its socket, or a trusted ingress's X-Forwarded-For).
 */
export type InProcessHandler = (req: IncomingMessage, res: ServerResponse, client: string) => void;

/** Set on a handed-over request: the client address the gateway decided. Its presence also says "handed over". */
const HANDED_OVER_CLIENT = Symbol('district.handedOverClient');

interface HandedOver {
  [HANDED_OVER_CLIENT]?: string;
}

/** Wraps a Fastify server's request listener (what its socket's requests get) as the entry a gateway calls. */
export function inProcessHandler(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): InProcessHandler {
  return (req, res, client) => {
    (req as HandedOver)[HANDED_OVER_CLIENT] = client;
    listener(req, res);
  };
}

/** The request came from a gateway in this process, which writes its access-log line. */
export function isHandedOver(req: IncomingMessage): boolean {
  return (req as HandedOver)[HANDED_OVER_CLIENT] !== undefined;
}

type Raw = IncomingMessage & HandedOver;

/**
 * Through a loopback hop the service sees the gateway's socket (a trusted proxy) and believes the
 * X-Forwarded-For/-Proto/-Host the gateway set. Handed over, the socket is the client's or an ingress's, which
 * TRUSTED_PROXIES need not list: so for a handed-over request `request.ip`, `ips`, `protocol` and `host` (hence
 * `hostname` and `port`) are made what the gateway decided, as through the hop.
 *
 * Most often (no ingress the gateway trusts) the gateway decided what the socket says, and Fastify reads the same
 * from the socket or, for a socket TRUSTED_PROXIES lists, from the headers the gateway set: nothing to do, which
 * keeps the hand-over cheap. Otherwise the four are set on the request itself (Fastify's getters on its prototype
 * cannot be redefined). Nothing changes for a request from a socket.
 */
export function adoptGatewayView(request: FastifyRequest): void {
  const raw = request.raw as Raw;
  const client = raw[HANDED_OVER_CLIENT];
  if (client === undefined) return;
  const { headers, socket } = raw;
  // The gateway replaced both headers before the hand-over: they are its own decisions, not the client's words.
  const protocol = headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  const host = headers['x-forwarded-host'] ?? headers.host ?? '';
  const socketProtocol = (socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (client === socket.remoteAddress && protocol === socketProtocol && host === (headers.host ?? '')) return;
  Object.defineProperties(request, {
    ip: { value: client },
    ips: { value: [client] },
    protocol: { value: protocol },
    host: { value: host },
  });
}
