import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { Headers, type ErrorResponse } from '@district/contracts';

/** Sends the platform's error shape (`ErrorResponse` of the contracts). */
export function sendJsonError(
  res: ServerResponse,
  statusCode: number,
  message: string,
  extraHeaders: Record<string, string> = {},
): void {
  const body: ErrorResponse = { statusCode, message };
  // The gateway's own answers carry the id it assigned (GatewayResponse); any other response, what it was given.
  const requestId = (res as { requestId?: string }).requestId ?? res.getHeader(Headers.requestId);
  if (typeof requestId === 'string') body.requestId = requestId;
  sendJson(res, statusCode, body, { 'Cache-Control': 'no-store', ...extraHeaders });
}

export function sendJson(
  res: ServerResponse,
  statusCode: number,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.statusCode = statusCode;
  for (const [name, value] of Object.entries(extraHeaders)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(res.req?.method === 'HEAD' ? undefined : payload);
}

/**
 * Answers on a raw socket, for upgrade requests that are refused before any HTTP response object exists,
 * then closes the socket.
 */
export function rejectUpgrade(
  socket: Duplex,
  statusCode: number,
  message: string,
  requestId: string,
  extraHeaders: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  const payload = JSON.stringify({ statusCode, message, requestId } satisfies ErrorResponse);
  const lines = [
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(payload)}`,
    'Connection: close',
    `${Headers.requestId}: ${requestId}`,
    ...Object.entries(extraHeaders).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${payload}`);
}

/** How long a socket answered after a parse error keeps reading what its client still sends before it is closed. */
const CLIENT_ERROR_LINGER_MS = 5_000;
const lingering = new WeakSet<Duplex>();

/**
 * Answers a request Node could not parse (`clientError`: headers or URL past Node's 16 KiB limit, a malformed
 * request line) in the platform's JSON error shape instead of Node's bare status line, then closes the socket.
 * Nothing is written when the peer is gone or a response has already started on the socket.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, requestId: string): void {
  // Answered already: Node parses each later chunk of the request (its body, still on its way) again, fails
  // again and says so again. That chunk has been read; it is dropped.
  if (lingering.has(socket)) return;
  const started = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  // Headers (or a body) too slow: no lingering for a client that is dribbling, and no more reading, so a request
  // that completes after the answer is never handled.
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // A connection that never sent a byte (a browser's preconnect) is closed without an answer: the browser would
    // read an unsolicited 408 as the answer to the request it sends next.
    if ((socket as { bytesRead?: number }).bytesRead === 0) return void socket.destroy();
    return refuseSocket(socket, 408, 'Request timeout', requestId);
  }
  // A lingering close: the client may still be writing the request's body. Reset at once, it would see the reset
  // instead of the answer (the fuzzer's PUT with a 17 KB query and a 500 KB body got EPIPE); the socket keeps reading
  // what still comes, for a bounded time, while the answer goes out and the client closes its side.
  lingering.add(socket);
  const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
  socket.once('close', () => clearTimeout(linger));
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return rejectUpgrade(socket, 431, 'Request headers too large', requestId);
  rejectUpgrade(socket, 400, 'Malformed request', requestId);
}

/** How long a refused socket may take to receive its answer before it is dropped anyway. */
const REFUSE_FLUSH_MS = 1_000;

/**
 * Answers a connection that is being cut while its request is still arriving (too slow, or one too many from its
 * address): reading stops at once, so nothing more of it is parsed or handled, the answer is sent, and the socket is
 * destroyed once the answer is out (or after a second, if the client does not read it).
 */
export function refuseSocket(socket: Duplex, statusCode: number, message: string, requestId: string): void {
  if (socket.destroyed) return;
  socket.pause();
  lingering.add(socket);
  const drop = setTimeout(() => socket.destroy(), REFUSE_FLUSH_MS).unref();
  socket.once('close', () => clearTimeout(drop));
  socket.once('finish', () => socket.destroy());
  if (socket.writable) rejectUpgrade(socket, statusCode, message, requestId);
  else socket.destroy();
}
