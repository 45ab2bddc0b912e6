import { randomUUID } from 'node:crypto';
import { isIPv4, isIPv6, type Socket } from 'node:net';
import type http from 'node:http';
import type { Logger } from 'pino';
import { refuseSocket } from './json-response';

/** How many requests one address may have whose headers are still arriving after a check period (ADR 0032). */
export const DEFAULT_MAX_UNFINISHED_PER_ADDRESS = 32;
/** Headers not complete this long after a request's first byte: 408 and the connection is closed (Node checks). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** How often Node looks for expired headers, and how often the per-address count is taken. */
export const CONNECTION_CHECK_INTERVAL_MS = 1_000;

export const TOO_MANY_UNFINISHED = 'Too many unfinished requests from this address';

/**
 * The key a peer is counted under: an IPv4 address (also when the socket names it IPv4-mapped, `::ffff:a.b.c.d`),
 * or the /64 prefix of an IPv6 address, since one subscriber is handed a whole /64 and could walk it.
 */
export function addressKey(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined) return 'unknown';
  const address = remoteAddress.split('%')[0];
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && isIPv4(lower.slice(7))) return lower.slice(7);
  if (isIPv4(address) || !isIPv6(address)) return address;
  const [head, tail] = lower.includes('::') ? lower.split('::') : [lower, undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (::a.b.c.d forms) sits in the low 64 bits, which the key drops.
  const width = tailGroups.some((g) => g.includes('.')) ? 7 : 8;
  const groups = [
    ...headGroups,
    ...Array<string>(Math.max(0, width - headGroups.length - tailGroups.length)).fill('0'),
    ...tailGroups,
  ];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

interface Tracked {
  key: string;
  /** Requests whose headers arrived and whose answer is not finished (pipelined ones count each). */
  active: number;
  /** No request has completed its headers on it yet. */
  fresh: boolean;
  /** `bytesRead` when its last answer finished: more since then is the next request on its way. */
  mark: number;
  /** The check (by number) that first found it waiting for headers. */
  since: number | undefined;
}

export interface UnfinishedRequestsOptions {
  maxPerAddress: number;
  logger: Logger;
  intervalMs?: number;
}

/**
 * Counts, per peer address, the connections whose next request's headers have not all arrived, and closes those
 * beyond `maxPerAddress` (a 429 answer, then the socket is dropped). Node's `headersTimeout` bounds how long each
 * may take; this bounds how many one address may hold open at once, which the timeout alone does not.
 *
 * Node parses on the socket's handle, out of JavaScript's sight, so the start of a request on a kept-alive socket has
 * no event: a periodic check reads each idle socket's `bytesRead` instead. Only a socket found waiting at two
 * checks in a row counts, and each check runs after the event loop has read what is pending, so a burst of
 * connections whose headers are already in the kernel's buffers is never mistaken for slow ones.
 */
export class UnfinishedRequests {
  private readonly tracked = new Map<Socket, Tracked>();
  private readonly timer: NodeJS.Timeout;
  private check = 0;

  constructor(private readonly options: UnfinishedRequestsOptions) {
    this.timer = setInterval(
      () => setImmediate(() => this.sweep()),
      options.intervalMs ?? CONNECTION_CHECK_INTERVAL_MS,
    );
    this.timer.unref();
  }

  /** Wires the counting to the server's events. */
  attach(server: http.Server): void {
    server.on('connection', (socket: Socket) => this.connected(socket));
    const started = (req: http.IncomingMessage, res?: http.ServerResponse) =>
      this.requestStarted(req.socket, res);
    server.on('request', started);
    server.on('checkContinue', started);
    server.on('checkExpectation', started);
    // An upgrade leaves HTTP: from then on the WebSocket's own limits apply.
    server.on('upgrade', (req: http.IncomingMessage) => this.forget(req.socket));
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** How many sockets of each address are waiting for headers now (for tests and diagnostics). */
  waiting(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [socket, t] of this.tracked) {
      if (this.isWaiting(socket, t)) counts.set(t.key, (counts.get(t.key) ?? 0) + 1);
    }
    return counts;
  }

  private connected(socket: Socket): void {
    this.tracked.set(socket, {
      key: addressKey(socket.remoteAddress),
      active: 0,
      fresh: true,
      mark: 0,
      since: undefined,
    });
    socket.once('close', () => this.forget(socket));
  }

  private requestStarted(socket: Socket, res: http.ServerResponse | undefined): void {
    const t = this.tracked.get(socket);
    if (!t) return;
    t.active += 1;
    t.fresh = false;
    t.since = undefined;
    res?.once('close', () => {
      t.active -= 1;
      t.mark = socket.bytesRead;
    });
  }

  private forget(socket: Socket): void {
    this.tracked.delete(socket);
  }

  private isWaiting(socket: Socket, t: Tracked): boolean {
    return t.active === 0 && (t.fresh || socket.bytesRead > t.mark);
  }

  /** Finds the sockets waiting since the previous check or longer, and refuses each address's beyond the cap. */
  private sweep(): void {
    this.check += 1;
    const slow = new Map<string, Socket[]>();
    for (const [socket, t] of this.tracked) {
      if (!this.isWaiting(socket, t)) {
        t.since = undefined;
        continue;
      }
      t.since ??= this.check;
      if (t.since < this.check) {
        const list = slow.get(t.key);
        if (list) list.push(socket);
        else slow.set(t.key, [socket]);
      }
    }
    for (const [key, sockets] of slow) {
      if (sockets.length <= this.options.maxPerAddress) continue;
      // The first ones keep their place (and their headers timeout); those that came after are refused. Insertion
      // order is connection order, and a stable sort keeps it among sockets found at the same check.
      const byAge = sockets.sort(
        (a, b) => (this.tracked.get(a)?.since ?? 0) - (this.tracked.get(b)?.since ?? 0),
      );
      const refused = byAge.slice(this.options.maxPerAddress);
      for (const socket of refused) {
        this.forget(socket);
        refuseSocket(socket, 429, TOO_MANY_UNFINISHED, randomUUID());
      }
      this.options.logger.warn(
        { address: key, refused: refused.length, limit: this.options.maxPerAddress },
        'too many unfinished requests from one address',
      );
    }
  }
}
